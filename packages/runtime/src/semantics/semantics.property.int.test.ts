import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interpret } from '@hankweave/hank';
import { describe, expect, it } from 'vitest';
import { comparable } from '../testing/semantics/observe.js';
import { tableOutcome } from '../testing/semantics/outcome-table.js';
import { playCase } from '../testing/semantics/play-case.js';
import { assertInParallel } from './assert-in-parallel.js';
import { type GeneratedCase, semanticsCase } from './semantics-arbitraries.js';

// The runtime against the reference interpreter (@hankweave/hank): generated hanks × generated
// outcomes × the person's resumes and rollbacks, each played by real runtimes (real state files,
// journal, checkpoints) on the outcome agent. What the runtime executed, how each run stopped and
// how each loop ended must equal what the interpreter says. RUNS and SEED come from the
// environment for the long run outside CI (RELIABILITY.md).
const RUNS = Number(process.env.HANKWEAVE_SEMANTICS_RUNS ?? 2000);
const SEED = Number(process.env.HANKWEAVE_SEMANTICS_SEED ?? 20261129);
// tmpfs when there is one: the cases are about decisions, not about the disk.
const TMP_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

async function check(semantics: GeneratedCase): Promise<void> {
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

describe('the runtime executes what the reference interpreter says', () => {
  it(
    `for ${RUNS} generated hanks, outcomes and steps (seed ${SEED})`,
    async () => {
      // Four cases in flight: each waits on its disk most of the time.
      await assertInParallel(semanticsCase(), check, { numRuns: RUNS, seed: SEED, concurrency: 4 });
    },
    Math.max(600_000, RUNS * 1_000),
  );
});
