import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeFixture } from '../test/helpers/fixtures.js';
import {
  type LoopStateFile,
  readLoopState,
  votesOf,
  withIteration,
  writeLoopState,
} from './loop-state.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('sessions-loop-state-');
});
afterEach(() => dir.cleanup());

const state = (fields: Partial<LoopStateFile> = {}): LoopStateFile => ({
  session: 'myfeature',
  type: 'loop',
  loop_type: 'work',
  started_at: '2025-01-10T10:00:00Z',
  status: 'running',
  iteration: 0,
  history: [],
  ...fields,
});
const record = (iteration: number, plateau: boolean) => ({
  iteration,
  timestamp: `2025-01-10T10:0${iteration}:00Z`,
  plateau,
  reasoning: null,
});

describe('readLoopState()', () => {
  it('is undefined when the file is missing', async () => {
    expect(await readLoopState(join(dir.path, 'nope.json'))).toBeUndefined();
  });

  it("reads the seed's example", async () => {
    const file = await placeFixture(dir.path, 'seed/loop-state-myfeature.json', 'state.json');
    const loaded = await readLoopState(file);
    expect(loaded).toMatchObject({
      session: 'myfeature',
      iteration: 5,
      completed_at: null,
      reason: null,
    });
    expect(loaded?.history.map((entry) => entry.plateau)).toEqual([false, true]);
  });

  it('reads a missing reasoning as null, keeps extra fields, drops a null decision', async () => {
    const file = await placeFixture(dir.path, 'tolerant/loop-state-tolerant.json', 'state.json');
    const loaded = await readLoopState(file);
    expect(loaded?.engine_version).toBe('0.3');
    expect(loaded?.history[0]?.reasoning).toBeNull();
    expect(loaded?.history[1]?.summary).toBe('kept');
    expect(loaded?.history[2]).not.toHaveProperty('decision');
  });

  it.each([
    ['not JSON', '{"session":'],
    ['not a loop state', '{"session": "x", "type": "pipeline"}'],
  ])('throws SESSIONS_CORRUPT_FILE naming the file for %s', async (_, text) => {
    const file = join(dir.path, 'state.json');
    await writeFile(file, text);
    await expect(readLoopState(file)).rejects.toMatchObject({
      code: 'SESSIONS_CORRUPT_FILE',
      details: { file },
    });
  });
});

describe('writeLoopState()', () => {
  it("writes the seed's field order with null completed_at and reason, creating directories", async () => {
    const file = join(dir.path, '.claude', 'loop-state-myfeature.json');
    const written = state({
      iteration: 1,
      history: [{ ...record(1, false), decision: 'continue', source: 'message', codon_id: 'c1' }],
    });
    await writeLoopState(file, written);
    const text = await readFile(file, 'utf8');
    expect(Object.keys(JSON.parse(text))).toEqual([
      'session',
      'type',
      'loop_type',
      'started_at',
      'status',
      'iteration',
      'history',
      'completed_at',
      'reason',
    ]);
    expect(text).toContain('\n  "history": [\n    {\n      "iteration": 1,');
    expect(text.endsWith('}\n')).toBe(true);
    expect(await readLoopState(file)).toEqual({ ...written, completed_at: null, reason: null });
  });

  it('round-trips the tolerant fixture without losing fields', async () => {
    const source = await placeFixture(dir.path, 'tolerant/loop-state-tolerant.json', 'in.json');
    const loaded = (await readLoopState(source)) as LoopStateFile;
    const target = join(dir.path, 'out.json');
    await mkdir(dir.path, { recursive: true });
    await writeLoopState(target, loaded);
    expect(await readLoopState(target)).toEqual({ ...loaded, completed_at: null });
  });
});

describe('withIteration()', () => {
  it('appends a record and sets iteration, leaving the input unchanged', () => {
    const before = state({ iteration: 1, history: [record(1, false)] });
    const after = withIteration(before, record(2, true));
    expect(after.iteration).toBe(2);
    expect(after.history).toEqual([record(1, false), record(2, true)]);
    expect(before.history).toHaveLength(1);
    expect(before.iteration).toBe(1);
  });

  it('replaces a record of the same iteration instead of counting it twice', () => {
    const after = withIteration(state({ history: [record(1, true)] }), record(1, false));
    expect(after.history).toEqual([record(1, false)]);
    expect(votesOf(after.history)).toEqual([record(1, false)]);
  });

  it("keeps an iteration's earlier votes when every vote names its run", () => {
    const c0 = { ...record(1, true), codon_id: 'c0', run_id: 'r0' };
    const c1 = { ...record(1, true), codon_id: 'c1', run_id: 'r1' };
    const c1Again = { ...record(1, false), codon_id: 'c1', run_id: 'r2' };
    const after = withIteration(withIteration(withIteration(state(), c0), c1), c1Again);
    // One history entry per iteration (the seed's shape), the newest vote on top.
    expect(after.history).toEqual([{ ...c1Again, earlier_votes: [c0, c1] }]);
    expect(votesOf(after.history)).toEqual([c0, c1, c1Again]);
    // A vote without a run replaces every earlier one: nothing can tell which of them counts.
    const plain = withIteration(after, record(1, true));
    expect(votesOf(plain.history)).toEqual([record(1, true)]);
  });

  it('round-trips earlier votes through the file in the field order', async () => {
    const c0 = { ...record(1, true), decision: 'stop' as const, codon_id: 'c0', run_id: 'r0' };
    const c1 = { ...record(1, false), decision: 'continue' as const, codon_id: 'c1', run_id: 'r1' };
    const written = withIteration(withIteration(state(), c0), c1);
    const file = join(dir.path, 'votes.json');
    await writeLoopState(file, written);
    expect(await readLoopState(file)).toEqual({ ...written, completed_at: null, reason: null });
    const raw = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(raw.history[0].earlier_votes[0]).slice(0, 4)).toEqual([
      'iteration',
      'timestamp',
      'plateau',
      'reasoning',
    ]);
  });

  it('drops the records of later iterations after a rollback to an earlier one', () => {
    const history = [record(1, false), record(2, true), record(3, true), record(4, true)];
    const after = withIteration(state({ iteration: 4, history }), record(2, false));
    expect(after.iteration).toBe(2);
    expect(after.history).toEqual([record(1, false), record(2, false)]);
  });
});
