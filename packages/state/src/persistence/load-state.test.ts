import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, createFaultyFs, useFixture } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { currentRun } from '../read/inspect.js';
import { StateStore } from '../state-store.js';
import { makeTransition as t } from '../testing/transitions.js';
import { loadState } from './load-state.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures');
afterEach(cleanupTempDirs);
// A copy of `test/fixtures/<name>` (fixtures are never changed in place); its `.hankweave` dir.
const fixture = async (name: string): Promise<string> =>
  join((await useFixture(FIXTURES, name, `state-fixture-${name}-`)).path, '.hankweave');

describe('loadState()', () => {
  it('reads a state.json written by the original runtime and keeps its extra fields', async () => {
    const dir = await fixture('original-runtime');
    const loaded = await loadState(dir);
    expect(loaded.recovery.source).toBe('primary');
    expect(loaded.validation).toEqual({ valid: true, errors: [], warnings: [] });
    expect(loaded.state.runs[0]?.codons[0]).toMatchObject({
      budgetExceeded: { limit: 1 },
      claudePid: 12345,
    });
    expect(loaded.state.initialCheckpoint).toBeUndefined();
  });

  it('continues such a state: crash detection, a new run, unknown fields survive the save', async () => {
    const dir = await fixture('original-runtime');
    const store = await StateStore.open(dir, { logger: { warn: () => {} } });
    expect(store.detectCrashedRuns()).toEqual(['1736000000000-abc12']);
    store.apply(t.runStarted('next'));
    await store.flush();
    const saved = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(saved.runs[1].codons[0].budgetExceeded).toEqual({
      currency: 'USD',
      limit: 1,
      used: 0.0312,
    });
    expect(saved.runs[1].codons[1].loopContext.loopBudget).toBe(2);
    expect(saved.runs[1].codons[2]).toMatchObject({
      status: 'failed',
      failedDuring: 'running',
      partialCost: 0.004,
    });
    expect(saved.executionPlan[1].codon.model).toBe('sonnet');
    expect(currentRun(store.state)?.runId).toBe('next');
  });

  it('reports a state.json it cannot read (not missing) as unreadable and uses the backup', async () => {
    const dir = await fixture('original-runtime');
    const fs = createFaultyFs({ failAt: 'readFile', pathIncludes: 'state.json', code: 'EACCES' });
    const loaded = await loadState(dir, { fs });
    expect(loaded.recovery.rejected[0]).toMatchObject({
      problem: 'unreadable',
      errors: [{ type: 'corrupted_data', message: expect.stringMatching(/EACCES/) }],
    });
    expect(loaded.recovery.rejected[1]).toMatchObject({ problem: 'missing' });
    expect(loaded.recovery.source).toBe('fresh');
  });
});
