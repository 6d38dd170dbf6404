import { readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, type Execution, input, makeExecution } from '../test/helpers.js';
import { type Changes, gitFold, makeBranches } from '../test/merge-helpers.js';
import type { CheckpointEngine, MergeResult } from './index.js';
import { assertRepoMatchesGit } from './testing.js';

afterEach(cleanupExecutions);

const read = (x: Execution, path: string) => readFileSync(join(x.root, path), 'utf8');
const lines = (...values: string[]) => values.map((value) => `${value}\n`).join('');
const ten = lines('1', '2', '3', '4', '5', '6', '7', '8', '9', '10');

/** Builds the branches, merges them with `policy` and checks the tree against git's fold. */
async function scenario(
  base: Changes,
  branches: Record<string, Changes>,
  policy: 'fail' | 'ordered' = 'fail',
): Promise<{ x: Execution; engine: CheckpointEngine; result: MergeResult; shas: string[] }> {
  const x = makeExecution();
  const engine = await x.open();
  const made = await makeBranches(x, engine, base, branches);
  const shas = Object.values(made.shas);
  const result = await engine.merge({
    base: made.base,
    branches: Object.entries(made.shas).map(([name, ref]) => ({ name, ref })),
    policy,
  });
  const git = gitFold(x, shas);
  if (result.ok && policy === 'fail') expect(result.tree).toBe(git.tree);
  if (!result.ok) expect(result.conflicts.map((c) => c.path)).toEqual(git.conflicted);
  return { x, engine, result, shas };
}

/** Commits the merge, restores it into agentRoot and checks the repository with git. */
async function commitAndRestore(
  x: Execution,
  engine: CheckpointEngine,
  result: MergeResult,
  parents: string[],
) {
  if (!result.ok) throw new Error('merge failed');
  const commit = await engine.commitMerge({
    tree: result.tree,
    parents,
    runId: 'main-run',
    codonId: 'join',
    codonName: 'Join branches',
    durationMs: 5,
  });
  const restored = await engine.restore(commit.sha);
  expect(x.git('status', '--porcelain')).toBe('');
  await assertRepoMatchesGit(engine);
  return { commit, restored };
}

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

  describe('merge() conflicts', () => {
    it('reports a content conflict with both sides and diff3 markers naming the branches', async () => {
      const { result } = await scenario(
        { 'f.txt': ten },
        {
          left: { 'f.txt': ten.replace('5\n', 'left\n').replace('1\n', 'one\n') },
          right: { 'f.txt': ten.replace('5\n', 'right\n') },
        },
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const [conflict] = result.conflicts;
      expect(conflict).toMatchObject({
        path: 'f.txt',
        kind: 'content',
        sides: [
          { branch: 'left', sha: expect.any(String), mode: '100644' },
          { branch: 'right', sha: expect.any(String), mode: '100644' },
        ],
      });
      expect(conflict?.text).toBe(
        lines(
          'one',
          '2',
          '3',
          '4',
          '<<<<<<< left',
          'left',
          '||||||| base',
          '5',
          '=======',
          'right',
          '>>>>>>> right',
          '6',
          '7',
          '8',
          '9',
          '10',
        ),
      );
    });

    it('lets the first branch win under ordered and keeps the clean hunks of the others', async () => {
      const { x, engine, result, shas } = await scenario(
        { 'f.txt': ten },
        {
          left: { 'f.txt': ten.replace('5\n', 'left\n') },
          right: { 'f.txt': ten.replace('5\n', 'right\n').replace('9\n', 'nine\n') },
        },
        'ordered',
      );
      expect(result).toMatchObject({
        ok: true,
        changed: ['f.txt'],
        resolved: [{ path: 'f.txt', kind: 'content', winner: 'left', others: ['right'] }],
      });
      await commitAndRestore(x, engine, result, shas);
      expect(read(x, 'f.txt')).toBe(ten.replace('5\n', 'left\n').replace('9\n', 'nine\n'));
    });

    it('reports add-add, modify-delete, binary, symlink and mode conflicts', async () => {
      const binary = (byte: number) => Buffer.from([1, 0, 2, byte]);
      const { result } = await scenario(
        {
          'mod-del.txt': 'base\n',
          'bin.dat': binary(1),
          link: { link: 'x' },
        },
        {
          one: {
            'added.txt': 'one\n',
            'mod-del.txt': 'changed\n',
            'bin.dat': binary(2),
            link: { link: 'y' },
            'tool.sh': { content: 'same\n', mode: 0o755 },
          },
          two: {
            'added.txt': 'two\n',
            'mod-del.txt': null,
            'bin.dat': binary(3),
            link: { link: 'z' },
            'tool.sh': { content: 'same\n', mode: 0o644 },
          },
        },
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const kinds = Object.fromEntries(result.conflicts.map((c) => [c.path, c.kind]));
      expect(kinds).toEqual({
        'added.txt': 'add-add',
        'bin.dat': 'binary',
        link: 'content',
        'mod-del.txt': 'modify-delete',
        'tool.sh': 'mode',
      });
      const modDel = result.conflicts.find((c) => c.path === 'mod-del.txt');
      expect(modDel?.sides).toEqual([
        { branch: 'one', sha: expect.any(String), mode: '100644' },
        { branch: 'two', sha: null, mode: null },
      ]);
      expect(result.conflicts.find((c) => c.path === 'added.txt')?.text).toContain('<<<<<<< one');
      expect(result.conflicts.find((c) => c.path === 'link')?.text).toBeUndefined();
      expect(result.conflicts.find((c) => c.path === 'bin.dat')?.text).toBeUndefined();
    });

    it('reports type conflicts: file against symlink, file against directory', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const made = await makeBranches(
        x,
        engine,
        { 'f.txt': 'f\n', 'd.txt': 'd\n' },
        {
          one: { 'f.txt': { link: 'elsewhere' }, 'd.txt': 'changed\n' },
          two: { 'f.txt': 'edited\n', 'd.txt': null, 'd.txt/inner.txt': 'inner\n' },
        },
      );
      const result = await engine.merge({
        base: made.base,
        branches: [
          { name: 'one', ref: made.shas.one as string },
          { name: 'two', ref: made.shas.two as string },
        ],
        policy: 'fail',
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.conflicts.map((c) => [c.path, c.kind])).toEqual([
        ['d.txt', 'type'],
        ['f.txt', 'type'],
      ]);
      expect(result.conflicts[0]?.sides).toEqual([
        { branch: 'one', sha: expect.any(String), mode: '100644' },
        { branch: 'two', sha: expect.any(String), mode: '40000' },
      ]);
      const ordered = await engine.merge({
        base: made.base,
        branches: [
          { name: 'one', ref: made.shas.one as string },
          { name: 'two', ref: made.shas.two as string },
        ],
        policy: 'ordered',
      });
      expect(ordered).toMatchObject({
        ok: true,
        resolved: [
          { path: 'd.txt', kind: 'type', winner: 'one', others: ['two'] },
          { path: 'f.txt', kind: 'type', winner: 'one', others: ['two'] },
        ],
      });
    });

    it('writes nothing with fail: no object, ref, HEAD or work-tree change', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const made = await makeBranches(
        x,
        engine,
        { 'f.txt': ten },
        {
          left: { 'f.txt': ten.replace('5\n', 'L\n') },
          right: { 'f.txt': ten.replace('5\n', 'R\n') },
        },
      );
      const snapshot = () => ({
        objects: x.git('count-objects', '-v'),
        refs: x.git('for-each-ref'),
        head: x.git('rev-parse', 'HEAD'),
        file: read(x, 'f.txt'),
      });
      const before = snapshot();
      const result = await engine.merge({
        base: made.base,
        branches: [
          { name: 'left', ref: made.shas.left as string },
          { name: 'right', ref: made.shas.right as string },
        ],
        policy: 'fail',
      });
      expect(result.ok).toBe(false);
      expect(snapshot()).toEqual(before);
    });
  });
});
