import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interpret } from '@hankweave/hank';
import { expect } from 'vitest';
import { comparable } from '../testing/semantics/observe.js';
import { tableOutcome } from '../testing/semantics/outcome-table.js';
import { playCase } from '../testing/semantics/play-case.js';
import type { GeneratedCase } from './semantics-arbitraries.js';

// tmpfs when there is one: the cases are about decisions, not about the disk.
const TMP_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/**
 * Plays a case on real runtimes and expects what they executed, how each run stopped and how
 * each loop ended to equal what the reference interpreter says.
 */
export async function checkAgainstInterpreter(semantics: GeneratedCase): Promise<void> {
  const expected = interpret({
    hank: semantics.config,
    outcome: tableOutcome(semantics.outcomes),
    steps: semantics.steps,
    ...(semantics.maxCost !== undefined ? { maxCost: semantics.maxCost } : {}),
  });
  const dir = await mkdtemp(join(TMP_ROOT, 'semantics-'));
  try {
    const played = await playCase(semantics, dir);
    expect(played.executions).toEqual(expected.executions.map(comparable));
    expect(played.stops).toEqual(expected.stops);
    expect(played.loops).toEqual(expected.loops);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
