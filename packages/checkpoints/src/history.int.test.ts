import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, input, makeExecution } from '../test/helpers.js';
import { formatMessage } from './internal/message.js';
import { EMPTY_TREE, hashObject, serializeCommit } from './internal/objects.js';
import { assertRepoMatchesGit } from './testing.js';

afterEach(cleanupExecutions);

async function history() {
  const x = makeExecution();
  const engine = await x.open();
  const at = (minute: number) => new Date(Date.UTC(2024, 0, 15, 12, minute));
  x.write('f.txt', '1\n');
  const a1 = await engine.checkpoint(
    input(['f.txt'], {
      runId: 'A',
      type: 'rig-setup',
      codonId: 'setup',
      codonName: 'Set up',
      timestamp: at(1),
    }),
  );
  x.write('f.txt', '2\n');
  const a2 = await engine.checkpoint(
    input(['f.txt'], { runId: 'A', codonId: 'build', codonName: 'Build it', timestamp: at(2) }),
  );
  x.write('f.txt', '3\n');
  const a3 = await engine.checkpoint(
    input(['f.txt'], {
      runId: 'A',
      type: 'error',
      codonId: 'test',
      codonName: 'Test',
      timestamp: at(3),
    }),
  );
  await engine.restore(a2.sha);
  x.write('f.txt', 'b\n');
  const b1 = await engine.checkpoint(
    input(['f.txt'], {
      runId: 'B',
      type: 'completed',
      codonId: 'test',
      codonName: 'Test again',
      timestamp: at(4),
    }),
  );
  return { x, engine, a1, a2, a3, b1 };
}

describe('CheckpointEngine', () => {
  describe('list()', () => {
    it('lists every checkpoint on every branch, newest first, parsed', async () => {
      const { x, engine, a1, a2, a3, b1 } = await history();
      const list = await engine.list();
      expect(list.map((info) => info.sha)).toEqual([b1.sha, a3.sha, a2.sha, a1.sha]);
      expect(list[0]).toMatchObject({
        type: 'completed',
        codonId: 'test',
        runId: 'B',
        codonName: 'Test again',
        timestamp: '2024-01-15T12:04:00.000Z',
        durationMs: 10,
        branch: 'run-B',
        branches: ['run-B'],
        parents: [a2.sha],
      });
      expect(list[2]).toMatchObject({
        codonId: 'build',
        branch: 'run-A',
        branches: ['run-A', 'run-B'],
      });
      expect(list[3]).toMatchObject({ type: 'rig-setup', codonName: 'Set up' });
      expect(x.git('log', '--all', '--format=%H', '--grep=test').trim().split('\n').sort()).toEqual(
        [a3.sha, b1.sha].sort(),
      );
      await assertRepoMatchesGit(engine);
    });
  });

  describe('resolve()', () => {
    it('expands partial shas, branch names and HEAD across all branches', async () => {
      const { engine, a3, b1 } = await history();
      expect(await engine.resolve(a3.sha.slice(0, 7))).toBe(a3.sha);
      expect(await engine.resolve(a3.sha.slice(0, 7).toUpperCase())).toBe(a3.sha);
      expect(await engine.resolve(b1.sha)).toBe(b1.sha);
      expect(await engine.resolve('run-A')).toBe(a3.sha);
      expect(await engine.resolve('HEAD')).toBe(b1.sha);
      await expect(engine.resolve('abc')).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_INPUT',
      });
      await expect(engine.resolve('no-such-branch')).rejects.toMatchObject({
        code: 'CHECKPOINT_NOT_FOUND',
      });
      await expect(engine.resolve('f'.repeat(40))).rejects.toMatchObject({
        code: 'CHECKPOINT_NOT_FOUND',
      });
    });

    it('reports an ambiguous prefix with every candidate', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const when = new Date('2024-02-01T00:00:00.000Z');
      const shaFor = (runId: string) =>
        hashObject(
          'commit',
          serializeCommit(
            EMPTY_TREE,
            [engine.initialCheckpoint],
            when,
            formatMessage('completed', 'amb', runId, 'Amb', when, 0),
          ),
        );
      // Search run ids until two commits share a 4-digit prefix (~300 tries on average).
      const seen = new Map<string, string>();
      let pair: [string, string] | undefined;
      for (let i = 0; !pair && i < 20000; i++) {
        const runId = `amb${i}`;
        const prefix = shaFor(runId).slice(0, 4);
        const other = seen.get(prefix);
        if (other) pair = [other, runId];
        else seen.set(prefix, runId);
      }
      if (!pair) throw new Error('no colliding prefix found');
      const made: string[] = [];
      for (const runId of pair) {
        await engine.restore(engine.initialCheckpoint);
        made.push(
          (
            await engine.checkpoint({
              type: 'completed',
              codonId: 'amb',
              codonName: 'Amb',
              runId,
              durationMs: 0,
              files: [],
              timestamp: when,
            })
          ).sha,
        );
      }
      expect(made).toEqual(pair.map(shaFor));
      const prefix = (made[0] as string).slice(0, 4);
      const error = await engine.resolve(prefix).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'CHECKPOINT_AMBIGUOUS' });
      expect(
        (error as { details: { candidates: { sha: string }[] } }).details.candidates.map(
          (c) => c.sha,
        ),
      ).toEqual([...made].sort());
      await expect(engine.exists(prefix)).rejects.toMatchObject({ code: 'CHECKPOINT_AMBIGUOUS' });
      const longer = (made[1] as string).slice(0, 12);
      expect(await engine.resolve(longer)).toBe(made[1]);
      await assertRepoMatchesGit(engine);
    });
  });

  describe('exists()', () => {
    it('is true for commits and false for unknown shas and non-commit objects', async () => {
      const { x, engine, a1 } = await history();
      expect(await engine.exists(a1.sha)).toBe(true);
      expect(await engine.exists(a1.sha.slice(0, 8))).toBe(true);
      expect(await engine.exists('0'.repeat(40))).toBe(false);
      expect(await engine.exists(x.git('rev-parse', `${a1.sha}:f.txt`).trim())).toBe(false);
      expect(await engine.exists('not-a-thing')).toBe(false);
    });
  });

  describe('shasBetween()', () => {
    it('matches git rev-list a..b', async () => {
      const { x, engine, a1, a3, b1 } = await history();
      const revList = (range: string) =>
        x.git('rev-list', range).trim().split('\n').filter(Boolean);
      expect(await engine.shasBetween(a1.sha, a3.sha)).toEqual(revList(`${a1.sha}..${a3.sha}`));
      expect(await engine.shasBetween(a3.sha, b1.sha)).toEqual(revList(`${a3.sha}..${b1.sha}`));
      expect(await engine.shasBetween(engine.initialCheckpoint, b1.sha)).toEqual(
        revList(`${engine.initialCheckpoint}..${b1.sha}`),
      );
      expect(await engine.shasBetween(b1.sha, a1.sha)).toEqual([]);
    });
  });

  describe('readFile() and files()', () => {
    it('reads a file as git show does and lists a tree as git ls-tree does', async () => {
      const { x, engine, a2 } = await history();
      expect((await engine.readFile(a2.sha, 'f.txt')).toString()).toBe(
        x.git('show', `${a2.sha}:f.txt`),
      );
      expect(await engine.files(a2.sha)).toEqual([
        { path: 'f.txt', mode: '100644', oid: x.git('rev-parse', `${a2.sha}:f.txt`).trim() },
      ]);
      await expect(engine.readFile(a2.sha, 'nope.txt')).rejects.toMatchObject({
        code: 'CHECKPOINT_NOT_FOUND',
      });
      await expect(engine.readFile(a2.sha, '../f.txt')).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_PATH',
      });
      x.write('dir/a.txt', 'a\n');
      const withDir = await engine.checkpoint(input(['dir/a.txt']));
      await expect(engine.readFile(withDir.sha, 'dir')).rejects.toMatchObject({
        code: 'CHECKPOINT_NOT_FOUND',
      });
      await expect(engine.readFile(withDir.sha, 'dir/a.txt/x')).rejects.toMatchObject({
        code: 'CHECKPOINT_NOT_FOUND',
      });
    });
  });
});
