import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  cleanupTempDirs,
  createFaultyFs,
  makeTempDir,
  useFixture,
} from '@hankweave/durable-io/testing';
import { emptyState } from '@hankweave/types';
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

describe('loadState() on hostile files (found by the fuzz tests)', () => {
  const original = async () => {
    const dir = await fixture('original-runtime');
    return { dir, state: JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) };
  };
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('refuses a state nested thousands of levels deep instead of loading what it cannot save', async () => {
    const { dir, state } = await original();
    const text = JSON.stringify({ ...state, extra: 'DEEP' }).replace('"DEEP"', nested(20_000));
    await writeFile(join(dir, 'state.json'), text);
    const loaded = await loadState(dir);
    expect(loaded.recovery.source).toBe('fresh');
    expect(loaded.recovery.rejected[0]).toMatchObject({
      problem: 'invalid',
      errors: [{ type: 'corrupted_data', message: expect.stringMatching(/256 levels/) }],
    });
    // Before: it loaded, and every save failed with "Maximum call stack size exceeded".
    const store = await StateStore.open(dir, { logger: { warn: () => {} } });
    store.apply(t.runStarted('next'));
    await expect(store.flush()).resolves.toBeUndefined();
  });

  it('describes a bad codon whose fields are deep arrays or objects with a toString key', async () => {
    const { dir, state } = await original();
    for (const status of [nested(20_000), '{"toString": 1}', '{"valueOf": {}}']) {
      const codon = { ...state.runs[0].codons[0], status: 'BAD' };
      const run = { ...state.runs[0], codons: [codon] };
      await writeFile(
        join(dir, 'state.json'),
        JSON.stringify({ ...state, runs: [run] }).replace('"BAD"', status),
      );
      // Before: a RangeError or "Cannot convert object to primitive value" escaped loadState.
      const loaded = await loadState(dir);
      expect(loaded.recovery.source).toBe('fresh');
      expect(loaded.recovery.rejected[0]?.problem).toBe('invalid');
    }
  });

  it('saves when state.json.bak is a directory, keeping it aside', async () => {
    const { path } = await makeTempDir('state-bak-dir-');
    const dir = join(path, '.hankweave');
    await mkdir(join(dir, 'state.json.bak'), { recursive: true });
    await writeFile(join(dir, 'state.json'), JSON.stringify(emptyState()));
    const store = await StateStore.open(dir, { logger: { warn: () => {} } });
    expect(store.recovery.source).toBe('primary');
    store.apply(t.runStarted('r1'));
    // Before: every save failed with EISDIR (unlink of the backup).
    await store.flush();
    const names = await readdir(dir);
    expect(names.some((name) => name.startsWith('state.json.bak.corrupt-'))).toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'state.json.bak'), 'utf8'))).toEqual(emptyState());
    expect((await loadState(dir)).state).toEqual(store.state);
  });
});

describe('loadState() under an I/O error at every step', () => {
  it('resolves with the best file it could read', async () => {
    const dir = await fixture('original-runtime');
    const good = await loadState(dir);
    await writeFile(join(dir, 'state.json.bak'), await readFile(join(dir, 'state.json')));
    await mkdir(join(dir, 'runs', 'orphan'), { recursive: true });
    let step = 0;
    for (; step < 50; step++) {
      const fs = createFaultyFs({ failAt: 'any', after: step, code: 'EIO' });
      // Before: an EIO listing runs/ (for the orphaned-folder warning) escaped as a bare error.
      const loaded = await loadState(dir, { fs });
      expect(loaded.state).toEqual(good.state);
      expect(loaded.recovery.source).not.toBe('fresh');
      if (!fs.faulted) break;
    }
    expect(step).toBeGreaterThanOrEqual(3);
  });
});
