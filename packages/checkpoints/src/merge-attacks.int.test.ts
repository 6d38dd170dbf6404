import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, type Execution, input, makeExecution } from '../test/helpers.js';
import { makeBranches } from '../test/merge-helpers.js';
import { MODE_FILE, MODE_TREE, serializeTree, type TreeEntry } from './internal/objects.js';
import { runNativeGit } from './testing.js';

afterEach(cleanupExecutions);
const outsides: string[] = [];
afterEach(() => {
  for (const dir of outsides.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes a tree object git would refuse to build, through `hash-object --literally`. */
function craftTree(x: Execution, entries: TreeEntry[]): string {
  return runNativeGit(x.exec, ['hash-object', '-t', 'tree', '--literally', '-w', '--stdin'], {
    input: serializeTree(entries),
  }).stdout.trim();
}

function blob(x: Execution, text: string): string {
  return runNativeGit(x.exec, ['hash-object', '-w', '--stdin'], { input: text }).stdout.trim();
}

describe('CheckpointEngine merge() under attack', () => {
  it('rejects a base or branch ref that does not exist with CHECKPOINT_NOT_FOUND', async () => {
    const x = makeExecution();
    const engine = await x.open();
    x.write('f.txt', 'f\n');
    const base = await engine.checkpoint(input(['f.txt']));
    const merge = (baseRef: string, ref: string) =>
      engine.merge({ base: baseRef, branches: [{ name: 'b', ref }], policy: 'fail' });
    await expect(merge(base.sha, 'run-nope')).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
    await expect(merge(base.sha, 'f'.repeat(40))).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
    await expect(merge('run-nope', base.sha)).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
    await expect(
      engine.commitMerge({
        tree: 'e'.repeat(40),
        parents: [base.sha],
        runId: 'r',
        codonId: 'j',
        codonName: 'J',
        durationMs: 1,
      }),
    ).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    await expect(
      engine.commitMerge({
        tree: base.tree,
        parents: [base.sha, 'run-nope'],
        runId: 'r',
        codonId: 'j',
        codonName: 'J',
        durationMs: 1,
      }),
    ).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
  });

  it('rejects bad arguments with CHECKPOINT_INVALID_INPUT', async () => {
    const x = makeExecution();
    const engine = await x.open();
    x.write('f.txt', 'f\n');
    const { sha, tree } = await engine.checkpoint(input(['f.txt']));
    const invalid = { code: 'CHECKPOINT_INVALID_INPUT' };
    await expect(engine.merge({ base: sha, branches: [], policy: 'fail' })).rejects.toMatchObject(
      invalid,
    );
    await expect(
      // @ts-expect-error: a policy that does not exist
      engine.merge({ base: sha, branches: [{ name: 'a', ref: sha }], policy: 'theirs' }),
    ).rejects.toMatchObject(invalid);
    for (const names of [['a', 'a'], ['bad\nname'], ['']]) {
      await expect(
        engine.merge({
          base: sha,
          branches: names.map((name) => ({ name, ref: sha })),
          policy: 'fail',
        }),
      ).rejects.toMatchObject(invalid);
    }
    const commit = { tree, runId: 'r', codonId: 'j', codonName: 'J', durationMs: 1 };
    await expect(engine.commitMerge({ ...commit, parents: [] })).rejects.toMatchObject(invalid);
    await expect(
      engine.commitMerge({ ...commit, parents: [sha], runId: 'a..b' }),
    ).rejects.toMatchObject(invalid);
  });

  it('never writes a path with .. or .git from a crafted tree', async () => {
    const x = makeExecution();
    const engine = await x.open();
    x.write('ok.txt', 'ok\n');
    const base = await engine.checkpoint(input(['ok.txt']));
    const payload = craftTree(x, [
      { name: 'escaped.txt', mode: MODE_FILE, oid: blob(x, 'pwned\n') },
    ]);
    for (const name of ['..', '.git', '.GIT']) {
      const root = craftTree(x, [
        { name, mode: MODE_TREE, oid: payload },
        { name: 'ok.txt', mode: MODE_FILE, oid: blob(x, 'ok\n') },
      ]);
      const commit = x.git('commit-tree', root, '-p', base.sha, '-m', 'evil').trim();
      x.git('update-ref', 'refs/heads/evil', commit);
      for (const policy of ['fail', 'ordered'] as const) {
        await expect(
          engine.merge({ base: base.sha, branches: [{ name: 'evil', ref: 'evil' }], policy }),
        ).rejects.toMatchObject({ code: 'CHECKPOINT_REPO_CORRUPT' });
      }
      await expect(engine.restore(commit)).rejects.toMatchObject({
        code: 'CHECKPOINT_REPO_CORRUPT',
      });
      expect(existsSync(join(x.exec, 'escaped.txt'))).toBe(false);
      expect(existsSync(join(x.root, '.git'))).toBe(false);
      expect(existsSync(join(x.root, '.GIT'))).toBe(false);
    }
  });

  it('commitMerge + restore never writes through a symlinked directory out of agentRoot', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'hankweave-outside-'));
    outsides.push(outside);
    mkdirSync(join(outside, 'sub'));
    const x = makeExecution();
    const engine = await x.open();
    const made = await makeBranches(
      x,
      engine,
      { 'keep.txt': 'keep\n' },
      {
        one: { 'out/sub/new.txt': 'merged in\n' },
        two: { 'link/file.txt': 'two\n' },
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
    if (!result.ok) throw new Error('merge failed');
    const commit = await engine.commitMerge({
      tree: result.tree,
      parents: Object.values(made.shas),
      runId: 'main',
      codonId: 'join',
      codonName: 'Join',
      durationMs: 1,
    });
    // The agent replaced the directories the merge writes into by links out of the tree.
    x.link('out', outside);
    x.link('link', outside);
    await engine.restore(commit.sha);
    expect(existsSync(join(outside, 'sub', 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'file.txt'))).toBe(false);
    expect(lstatSync(join(x.root, 'out')).isDirectory()).toBe(true);
    expect(lstatSync(join(x.root, 'link')).isDirectory()).toBe(true);
    expect(readFileSync(join(x.root, 'out/sub/new.txt'), 'utf8')).toBe('merged in\n');
    expect(readFileSync(join(x.root, 'link/file.txt'), 'utf8')).toBe('two\n');
    expect(x.git('status', '--porcelain')).toBe('');
  });
});
