import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { emptyTokenUsage, type HankweaveState } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { twoRunState } from '../../test/fixture-state.js';
import type { StateError } from '../errors.js';
import { loadState } from '../persistence/load-state.js';
import { StateStore } from '../state-store.js';
import { makeTransition as t } from '../testing/transitions.js';
import { STATE_REPAIR_KINDS } from './repair-state.js';
import { validateState } from './validate-state.js';

// One example per kind of structural damage (README "Recovery"). Before the repair, each of these
// files was rejected and the state came from state.json.bak, losing everything after it.

afterEach(cleanupTempDirs);
// biome-ignore lint/suspicious/noExplicitAny: damage is done on untyped JSON, like a hand edit.
type Json = any;

const quiet = { warn: () => {} };

/**
 * A `.hankweave` dir whose state.json is twoRunState() damaged by `edit` (as JSON, or as text by
 * `text`), and whose state.json.bak is an older good save (only r1).
 */
const damaged = async (
  edit: (doc: Json) => void,
  text: (json: string) => string = (json) => json,
): Promise<{ dir: string; doc: Json; bytes: string }> => {
  const { path } = await makeTempDir('state-repair-');
  const doc = JSON.parse(JSON.stringify(twoRunState()));
  const backup = JSON.parse(
    JSON.stringify({ ...doc, runs: doc.runs.slice(1), currentRunId: null }),
  );
  edit(doc);
  const bytes = text(JSON.stringify(doc, null, 2));
  await writeFile(join(path, 'state.json'), bytes);
  await writeFile(join(path, 'state.json.bak'), JSON.stringify(backup, null, 2));
  return { dir: path, doc, bytes };
};

/** Loads, and checks what every repair must give: from state.json, valid, all runs kept. */
const loadRepaired = async (dir: string, runIds = ['r2', 'r1']) => {
  const loaded = await loadState(dir);
  expect(loaded.recovery.source).toBe('primary');
  expect(loaded.recovery.repairs.length).toBeGreaterThan(0);
  expect((await validateState(loaded.state)).valid).toBe(true);
  expect(loaded.state.runs.map((run) => run.runId)).toEqual(runIds);
  return { state: loaded.state, repairs: loaded.recovery.repairs, recovery: loaded.recovery };
};

const without = (state: HankweaveState, edit: (doc: Json) => void): Json => {
  const doc = JSON.parse(JSON.stringify(state));
  edit(doc);
  return doc;
};

describe('loading a readable but structurally invalid state.json repairs and keeps it', () => {
  it('current-run-ghost: currentRunId naming no run points at the newest running run', async () => {
    const { dir } = await damaged((doc) => {
      doc.currentRunId = 'ghost';
    });
    const { state, repairs, recovery } = await loadRepaired(dir);
    expect(state).toEqual(twoRunState());
    expect(repairs).toEqual([
      expect.objectContaining({
        file: 'state.json',
        path: 'currentRunId',
        kind: 'current-run-reset',
      }),
    ]);
    expect(recovery.repaired?.errors.map((error) => error.type)).toEqual(['missing_run']);
  });

  it('current-run-ghost with no running run: currentRunId becomes null', async () => {
    const { dir } = await damaged((doc) => {
      doc.currentRunId = 'ghost';
      doc.runs[0].status = 'crashed';
    });
    const { state } = await loadRepaired(dir);
    expect(state.currentRunId).toBeNull();
  });

  it('current-run-not-a-string: a currentRunId of the wrong type is reset too', async () => {
    const { dir } = await damaged((doc) => {
      doc.currentRunId = 7;
    });
    const { state, repairs } = await loadRepaired(dir);
    expect(state.currentRunId).toBe('r2');
    expect(repairs).toEqual([
      {
        file: 'state.json',
        path: 'currentRunId',
        kind: 'current-run-reset',
        message: expect.stringMatching(/'r2'/),
      },
    ]);
  });

  it('duplicate-run-id: the older run of a repeated id is renamed, both kept', async () => {
    const { dir } = await damaged((doc) => {
      doc.runs[1].runId = 'r2';
    });
    const { state, repairs } = await loadRepaired(dir, ['r2', 'r2~2']);
    expect(state.runs[1]?.codons).toEqual(twoRunState().runs[1]?.codons);
    expect(repairs).toEqual([
      expect.objectContaining({ path: 'runs[1].runId', kind: 'duplicate-run-renamed' }),
    ]);
  });

  it('negative-number: a negative cost or count becomes 0', async () => {
    const { dir } = await damaged((doc) => {
      doc.runs[0].codons[0].currentCost = -3;
      doc.runs[0].codons[0].currentTokens.inputTokens = -1;
    });
    const { state, repairs } = await loadRepaired(dir);
    expect(state.runs[0]?.codons[0]).toMatchObject({
      currentCost: 0,
      currentTokens: { inputTokens: 0 },
    });
    expect(repairs.map((repair) => [repair.path, repair.kind])).toEqual([
      ['runs[0].codons[0].currentCost', 'number-clamped'],
      ['runs[0].codons[0].currentTokens.inputTokens', 'number-clamped'],
    ]);
  });

  it('fractional-integer: a pid or exit code that is not whole is truncated', async () => {
    const { dir } = await damaged((doc) => {
      doc.runs[1].serverPid = 4242.5;
      doc.runs[1].codons[2].exitCode = 1.75;
    });
    const { state } = await loadRepaired(dir);
    expect(state.runs[1]?.serverPid).toBe(4242);
    expect(state.runs[1]?.codons[2]).toMatchObject({ status: 'failed', exitCode: 1 });
  });

  it('infinite-number: 1e999 (Infinity once parsed) becomes 0', async () => {
    const { dir } = await damaged(
      (doc) => {
        doc.runs[1].codons[0].finalCost = 'INFINITE';
      },
      (json) => json.replace('"INFINITE"', '1e999'),
    );
    const { state } = await loadRepaired(dir);
    expect(state.runs[1]?.codons[0]).toMatchObject({ status: 'completed', finalCost: 0 });
  });

  it('missing-required-field: a required field gets its neutral default', async () => {
    const { dir } = await damaged((doc) => {
      delete doc.runs[1].codons[0].finalTokens;
      delete doc.runs[1].codons[2].failureReason;
      delete doc.runs[1].gitBranch;
    });
    const { state, repairs } = await loadRepaired(dir);
    const expected = without(twoRunState(), (doc) => {
      doc.runs[1].codons[0].finalTokens = emptyTokenUsage();
      doc.runs[1].codons[2].failureReason = {
        type: 'unknown',
        retriable: false,
        message: expect.any(String),
      };
      doc.runs[1].gitBranch = '';
    });
    expect(state).toEqual(expected);
    expect(repairs.map((repair) => repair.kind)).toEqual([
      'field-defaulted',
      'field-defaulted',
      'field-defaulted',
    ]);
  });

  it('sentinels-misnamed: a terminal record with sentinels.loaded gets them as executed', async () => {
    const { dir } = await damaged((doc) => {
      const sentinels = doc.runs[1].codons[0].sentinels;
      sentinels.loaded = sentinels.executed;
      delete sentinels.executed;
    });
    const { state, repairs } = await loadRepaired(dir);
    expect(state).toEqual(twoRunState());
    expect(repairs).toEqual([
      expect.objectContaining({ path: 'runs[1].codons[0].sentinels', kind: 'sentinels-renamed' }),
    ]);
  });

  it('optional-field-wrong-type: an invalid optional field is removed', async () => {
    const { dir } = await damaged((doc) => {
      doc.runs[1].codons[0].completionCheckpoint = 42;
      doc.runs[1].endTime = { at: 'noon' };
    });
    const { state } = await loadRepaired(dir);
    expect(state).toEqual(
      without(twoRunState(), (doc) => {
        delete doc.runs[1].codons[0].completionCheckpoint;
        delete doc.runs[1].endTime;
      }),
    );
  });

  it('optional-object-broken: an optional object with a field that has no default is removed', async () => {
    const { dir } = await damaged((doc) => {
      doc.runs[0].codons[0].loopContext = { loopId: 5, iteration: 0, codonIndexInLoop: 0 };
    });
    const { state, repairs } = await loadRepaired(dir);
    expect(state).toEqual(twoRunState());
    expect(repairs).toEqual([
      expect.objectContaining({ path: 'runs[0].codons[0].loopContext', kind: 'field-dropped' }),
    ]);
  });

  it('run-status-unknown: a run status that is not one of the four becomes crashed', async () => {
    const { dir } = await damaged((doc) => {
      doc.runs[1].status = 'paused';
    });
    const { state } = await loadRepaired(dir);
    expect(state.runs[1]?.status).toBe('crashed');
  });

  it('starting-conditions-broken: an unknown type with a source is read as a continuation', async () => {
    const { dir } = await damaged((doc) => {
      doc.runs[0].startingConditions.type = 'teleport';
    });
    const { state } = await loadRepaired(dir);
    expect(state).toEqual(twoRunState());
  });

  it('plan-broken: an invalid execution plan is emptied (rebuilt from hank.json at start)', async () => {
    const { dir } = await damaged((doc) => {
      doc.executionPlan[2].codonId = '';
    });
    const { state, repairs } = await loadRepaired(dir);
    expect(state.executionPlan).toEqual([]);
    expect(state.runs).toEqual(twoRunState().runs);
    expect(repairs).toEqual([
      expect.objectContaining({ path: 'executionPlan', kind: 'plan-reset' }),
    ]);
  });
});

describe('what is not repaired, and how the repair is saved', () => {
  for (const [name, edit] of [
    ['a run without a runId', (doc: Json) => delete doc.runs[0].runId],
    ['a codon record with an unknown status', (doc: Json) => (doc.runs[1].codons[1].status = 'x')],
    ['a codon record without a codonId', (doc: Json) => delete doc.runs[1].codons[1].codonId],
    ['runs that are not an array', (doc: Json) => (doc.runs = { r2: doc.runs[0] })],
    ['codons that are not an array', (doc: Json) => (doc.runs[0].codons = 'none')],
    ['a top level that is an array', (doc: Json) => (doc.length = 0)],
  ] as const) {
    it(`falls back to state.json.bak for ${name} (unreadable as a state)`, async () => {
      const { dir } = await damaged(edit as (doc: Json) => void, (json) =>
        name === 'a top level that is an array' ? '[]' : json,
      );
      const loaded = await loadState(dir);
      expect(loaded.recovery.source).toBe('backup');
      expect(loaded.recovery.repairs).toEqual([]);
      expect(loaded.recovery.rejected[0]?.problem).toBe('invalid');
    });
  }

  it('repairs state.json.bak too when state.json is not JSON, keeping both aside', async () => {
    const { dir } = await damaged(() => {});
    const backup = JSON.parse(await readFile(join(dir, 'state.json.bak'), 'utf8'));
    backup.currentRunId = 'ghost';
    await writeFile(join(dir, 'state.json.bak'), JSON.stringify(backup));
    await writeFile(join(dir, 'state.json'), '{"runs": [');
    const store = await StateStore.open(dir, { logger: quiet });
    expect(store.recovery.source).toBe('backup');
    expect(store.recovery.repairs).toEqual([
      expect.objectContaining({ file: 'state.json.bak', path: 'currentRunId' }),
    ]);
    expect(store.state.currentRunId).toBeNull();
    const names = await readdir(dir);
    expect(names.filter((name) => name.startsWith('state.json.corrupt-'))).toHaveLength(1);
    expect(names.filter((name) => name.startsWith('state.json.bak.corrupt-'))).toHaveLength(1);
    expect(JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'))).toEqual(store.state);
  });

  it('reports a failed save of the repair, keeps it in memory, and saves it at the next flush', async () => {
    const { dir } = await damaged((doc) => {
      doc.currentRunId = 'ghost';
    });
    const fs = createFaultyFs({ failAt: 'rename', pathIncludes: 'state.json.tmp', code: 'EIO' });
    const errors: StateError[] = [];
    const store = await StateStore.open(dir, {
      fs,
      logger: quiet,
      onWriteError: (e) => errors.push(e),
    });
    expect(errors.map((error) => error.code)).toEqual(['STATE_WRITE_FAILED']);
    expect(store.state).toEqual(twoRunState());
    store.apply(t.messages('r2', 'review#0', 7));
    await store.flush();
    const saved = await loadState(dir);
    expect(saved.recovery).toMatchObject({ source: 'primary', repairs: [] });
    expect(saved.state).toEqual(store.state);
  });

  it('readState-style loading never writes: the damaged file stays until a store opens', async () => {
    const { dir, bytes } = await damaged((doc) => {
      doc.runs[1].serverPid = 1.5;
    });
    await loadRepaired(dir);
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe(bytes);
    expect((await readdir(dir)).sort()).toEqual(['state.json', 'state.json.bak']);
  });
});

describe('STATE_REPAIR_KINDS', () => {
  it('is the closed list the README table documents', async () => {
    const readme = await readFile(join(import.meta.dirname, '../../README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Recovery'), readme.indexOf('## Durability'));
    const documented = [...new Set([...table.matchAll(/\| `([a-z-]+)` +\|/g)].map((m) => m[1]))];
    expect(documented.sort()).toEqual([...STATE_REPAIR_KINDS].sort());
    expect(STATE_REPAIR_KINDS).toEqual([
      'number-clamped',
      'field-dropped',
      'field-defaulted',
      'sentinels-renamed',
      'plan-reset',
      'current-run-reset',
      'duplicate-run-renamed',
    ]);
  });
});
