import { readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, input, makeExecution } from '../test/helpers.js';
import { commitAndRestore, makeBranches, read, scenario, ten } from '../test/merge-helpers.js';
import { assertRepoMatchesGit } from './testing.js';

afterEach(cleanupExecutions);

describe('CheckpointEngine', () => {
  describe('merge()', () => {
    it('combines disjoint adds, edits and deletes like git, and restores them', async () => {
      const { x, engine, result, shas } = await scenario(
        { 'shared/keep.txt': 'keep\n', 'a/old.txt': 'old\n', 'b/edit.txt': 'v1\n' },
        {
          one: { 'a/new.txt': 'from one\n', 'a/old.txt': null },
          two: { 'b/edit.txt': 'v2\n', 'c/deep/nested/file.txt': 'nested\n' },
        },
      );
      expect(result).toEqual({
        ok: true,
        tree: expect.any(String),
        changed: ['a/new.txt', 'a/old.txt', 'b/edit.txt', 'c/deep/nested/file.txt'],
        resolved: [],
      });
      const { commit, restored } = await commitAndRestore(x, engine, result, shas);
      expect(restored.written).toEqual(['a/new.txt', 'b/edit.txt', 'c/deep/nested/file.txt']);
      expect(restored.deleted).toEqual(['a/old.txt']);
      expect(read(x, 'b/edit.txt')).toBe('v2\n');
      const info = (await engine.list()).find((item) => item.sha === commit.sha);
      expect(info).toMatchObject({ type: 'merge', codonId: 'join', parents: shas });
      expect(x.git('rev-list', '--parents', '-n', '1', 'run-main-run').trim().split(' ')).toEqual([
        commit.sha,
        ...shas,
      ]);
    });

    it('merges edits to different lines of one file and keeps the line endings', async () => {
      const crlf = ten.replace(/\n/g, '\r\n');
      const { x, engine, result, shas } = await scenario(
        { 'notes.txt': ten, 'dos.txt': crlf, 'tail.txt': 'a\nb\nc' },
        {
          one: {
            'notes.txt': ten.replace('2\n', 'two\n'),
            'dos.txt': crlf.replace('2\r\n', 'two\r\n'),
            'tail.txt': 'A\nb\nc',
          },
          two: {
            'notes.txt': ten.replace('9\n', 'nine\n'),
            'dos.txt': crlf.replace('9\r\n', 'nine\r\n'),
            'tail.txt': 'a\nb\nC',
          },
        },
      );
      expect(result.ok).toBe(true);
      await commitAndRestore(x, engine, result, shas);
      expect(read(x, 'notes.txt')).toBe(ten.replace('2\n', 'two\n').replace('9\n', 'nine\n'));
      expect(read(x, 'dos.txt')).toBe(
        crlf.replace('2\r\n', 'two\r\n').replace('9\r\n', 'nine\r\n'),
      );
      expect(read(x, 'tail.txt')).toBe('A\nb\nC');
    });

    it('takes identical changes on both sides and a shared delete without conflict', async () => {
      const { result } = await scenario(
        { 'same.txt': 'v1\n', 'gone.txt': 'bye\n', 'empty.txt': '' },
        {
          one: { 'same.txt': 'v2\n', 'gone.txt': null, 'new-empty.txt': '', 'empty.txt': 'x\n' },
          two: { 'same.txt': 'v2\n', 'gone.txt': null, 'new-empty.txt': '', 'empty.txt': 'x\n' },
        },
      );
      expect(result).toMatchObject({
        ok: true,
        changed: ['empty.txt', 'gone.txt', 'new-empty.txt', 'same.txt'],
      });
    });

    it('merges an executable bit on one side with a content change on the other', async () => {
      const { x, engine, result, shas } = await scenario(
        { 'run.sh': { content: ten, mode: 0o644 } },
        {
          one: { 'run.sh': { content: ten, mode: 0o755 } },
          two: { 'run.sh': { content: ten.replace('5\n', 'five\n'), mode: 0o644 } },
        },
      );
      expect(result.ok).toBe(true);
      await commitAndRestore(x, engine, result, shas);
      expect(statSync(join(x.root, 'run.sh')).mode & 0o111).toBe(0o111);
      expect(read(x, 'run.sh')).toContain('five\n');
    });

    it('merges symlinks as blobs: one side retargets, the other adds one', async () => {
      const { x, engine, result, shas } = await scenario(
        { link: { link: 'target-a' }, 'target-a': 'a\n' },
        { one: { link: { link: 'target-b' } }, two: { 'other-link': { link: 'target-a' } } },
      );
      expect(result.ok).toBe(true);
      await commitAndRestore(x, engine, result, shas);
      expect(readlinkSync(join(x.root, 'link'))).toBe('target-b');
      expect(readlinkSync(join(x.root, 'other-link'))).toBe('target-a');
    });

    it('returns the branch itself for one branch, and ignores a branch that changed nothing', async () => {
      const one = await scenario({ 'f.txt': 'v1\n' }, { only: { 'f.txt': 'v2\n' } });
      expect(one.result).toMatchObject({ ok: true, changed: ['f.txt'] });
      const tree = one.x.git('rev-parse', `${one.shas[0]}^{tree}`).trim();
      expect(one.result.ok && one.result.tree).toBe(tree);

      const idle = await scenario({ 'f.txt': 'v1\n' }, { idle: {}, busy: { 'g.txt': 'g\n' } });
      expect(idle.result).toMatchObject({ ok: true, changed: ['g.txt'] });
    });

    it('folds three branches in block order like git', async () => {
      const { x, engine, result, shas } = await scenario(
        { 'f.txt': ten, 'd/keep.txt': 'keep\n' },
        {
          one: { 'f.txt': ten.replace('1\n', 'one\n'), 'd/one.txt': '1\n' },
          two: { 'f.txt': ten.replace('5\n', 'five\n'), 'd/keep.txt': null },
          three: { 'f.txt': ten.replace('9\n', 'nine\n'), 'e/three.txt': '3\n' },
        },
      );
      expect(result).toMatchObject({
        ok: true,
        changed: ['d/keep.txt', 'd/one.txt', 'e/three.txt', 'f.txt'],
      });
      await commitAndRestore(x, engine, result, shas);
      expect(read(x, 'f.txt')).toBe(
        ten.replace('1\n', 'one\n').replace('5\n', 'five\n').replace('9\n', 'nine\n'),
      );
    });
  });

  describe('commitMerge()', () => {
    it('moves the run branch, keeps HEAD on the files on disk, and the next checkpoint follows the merge', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const made = await makeBranches(
        x,
        engine,
        { 'f.txt': 'f\n' },
        { one: { 'one.txt': '1\n' }, two: { 'two.txt': '2\n' } },
      );
      // The parent run's branch, with HEAD on it, as the runtime leaves it before the block.
      await engine.restore(made.base);
      const before = await engine.checkpoint(input(['f.txt'], { runId: 'main' }));
      expect(await engine.head()).toEqual({ sha: before.sha, branch: 'run-main' });
      const result = await engine.merge({
        base: made.base,
        branches: [
          { name: 'one', ref: made.shas.one as string },
          { name: 'two', ref: made.shas.two as string },
        ],
        policy: 'fail',
      });
      if (!result.ok) throw new Error('merge failed');
      const merge = await engine.commitMerge({
        tree: result.tree,
        parents: [before.sha, made.shas.one as string, made.shas.two as string],
        runId: 'main',
        codonId: 'join',
        codonName: 'Join',
        durationMs: 3,
        timestamp: new Date('2026-01-02T03:04:05Z'),
      });
      expect(merge).toEqual({
        sha: expect.any(String),
        branch: 'run-main',
        tree: result.tree,
        parents: [before.sha, made.shas.one, made.shas.two],
      });
      expect(await engine.head()).toEqual({ sha: before.sha, branch: null });
      expect(x.git('status', '--porcelain')).toBe('');
      expect(x.git('log', '-1', '--format=%s', 'run-main').trim()).toBe(
        'merge:join [run:main] Join',
      );
      await engine.restore(merge.sha);
      expect(read(x, 'one.txt')).toBe('1\n');
      const next = await engine.checkpoint(
        input(['f.txt', 'one.txt', 'two.txt'], { runId: 'main' }),
      );
      expect(next.parent).toBe(merge.sha);
      expect(next.tree).toBe(result.tree);
      await assertRepoMatchesGit(engine);
    });
  });
});
