import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { type ChildUnderTest, spawnChild } from '@hankweave/durable-io/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { childBundle } from '../test/build-child.js';
import { cleanupExecutions, type Execution, input, makeExecution } from '../test/helpers.js';
import { gitFold, lines, ten } from '../test/merge-helpers.js';
import { CheckpointEngine } from './index.js';
import { runNativeGit } from './testing.js';

afterEach(cleanupExecutions);

const branchRoot = (x: Execution, name: string): string =>
  join(x.exec, 'branches', 'block', name, 'agentRoot');

/**
 * Native git's strict check of the whole repository; `dangling` allows unreachable objects (a
 * killed writer's, the test's own `git commit-tree` fold), which are not errors.
 */
function fsck(x: Execution, dangling = false): void {
  const args = ['fsck', '--full', '--strict', '--no-progress'];
  const out = runNativeGit(x.exec, dangling ? [...args, '--no-dangling'] : args, {
    allowFailure: true,
  });
  expect({ status: out.status, stderr: out.stderr, stdout: out.stdout }).toEqual({
    status: 0,
    stderr: '',
    stdout: '',
  });
}

/** Main HEAD's file, byte for byte, to prove nothing moved it. */
const mainHead = (x: Execution): string =>
  readFileSync(join(x.exec, '.hankweave', 'checkpoints', '.hankweavecheckpoints', 'HEAD'), 'utf8');

/** The base of a block: a few files checkpointed from agentRoot. */
async function baseCheckpoint(x: Execution, engine: CheckpointEngine): Promise<string> {
  x.write('shared.txt', ten);
  x.write('docs/readme.md', '# readme\n');
  x.write('bin/run.sh', '#!/bin/sh\n', 0o755);
  x.link('latest', 'docs/readme.md');
  const files = ['shared.txt', 'docs/readme.md', 'bin/run.sh', 'latest'];
  return (await engine.checkpoint(input(files, { runId: 'exec1' }))).sha;
}

function writeIn(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

describe('CheckpointEngine', () => {
  describe('worktree()', () => {
    it('seeds an empty work tree from the base and checkpoints on its own branch', async () => {
      const x = makeExecution();
      const engine = await x.open({ fsync: false });
      const base = await baseCheckpoint(x, engine);
      const headBefore = mainHead(x);
      const agentRootFiles = readdirSync(x.root).sort();

      const root = branchRoot(x, 'one');
      const branch = await engine.worktree({ name: 'one', workTree: root });
      expect(branch.worktreeName).toBe('one');
      expect(branch.workTree).toBe(root);
      expect((await branch.head()).sha).toBe(engine.initialCheckpoint);

      const restored = await branch.restore(base);
      expect(restored.written).toEqual(['bin/run.sh', 'docs/readme.md', 'latest', 'shared.txt']);
      expect(readFileSync(join(root, 'shared.txt'), 'utf8')).toBe(ten);
      expect(await branch.files('HEAD')).toEqual(await engine.files(base));

      writeIn(root, 'one/new.txt', 'from one\n');
      writeFileSync(join(root, 'shared.txt'), ten.replace('2\n', 'two\n'));
      const files = ['shared.txt', 'docs/readme.md', 'bin/run.sh', 'latest', 'one/new.txt'];
      const result = await branch.checkpoint(input(files, { runId: 'exec1.block.one' }));
      expect(result).toMatchObject({ branch: 'run-exec1.block.one', parent: base });
      expect(await branch.head()).toEqual({ sha: result.sha, branch: 'run-exec1.block.one' });

      // git sees the commit on the branch, with the base as its parent.
      expect(x.git('log', '--format=%H %P', 'run-exec1.block.one').trim().split('\n')[0]).toBe(
        `${result.sha} ${base}`,
      );
      expect(x.git('show', `${result.sha}:one/new.txt`)).toBe('from one\n');
      fsck(x);
      // The main work tree, its HEAD and its engine are untouched.
      expect(mainHead(x)).toBe(headBefore);
      expect(readdirSync(x.root).sort()).toEqual(agentRootFiles);
      expect(await engine.head()).toEqual({ sha: base, branch: 'run-exec1' });
      expect(x.git('status', '--porcelain')).toBe('');

      // diff and restore work there as on agentRoot.
      expect((await branch.diff(base, result.sha)).map((entry) => entry.path)).toEqual([
        'one/new.txt',
        'shared.txt',
      ]);
      expect((await branch.restore(base)).deleted).toEqual(['one/new.txt']);
      expect(existsSync(join(root, 'one'))).toBe(false);
      expect(mainHead(x)).toBe(headBefore);

      // Its own files, in its own directory; removing them leaves the objects and branches.
      const own = join(engine.gitDir, 'hankweave-worktrees', 'one');
      // index-hankweave-spare: the index before last, whose pages the next index write reuses.
      expect(readdirSync(own).sort()).toEqual([
        'HEAD',
        'hankweave-clock',
        'index',
        'index-hankweave-spare',
      ]);
      await branch.close();
      await engine.removeWorktree('one');
      expect(existsSync(own)).toBe(false);
      expect(await engine.resolve('run-exec1.block.one')).toBe(result.sha);
      fsck(x);
      const reopened = await engine.worktree({ name: 'one', workTree: root });
      expect((await reopened.head()).sha).toBe(engine.initialCheckpoint);
      await reopened.close();
    });

    it('accepts the run ids the runtime uses for branches and refuses bad names', async () => {
      const x = makeExecution();
      const engine = await x.open({ fsync: false });
      const base = await baseCheckpoint(x, engine);
      const branch = await engine.worktree({ name: 'b_1.x-y', workTree: branchRoot(x, 'b') });
      await branch.restore(base);
      for (const runId of ['20240115-abc123.par-1.b2', 'r.block#1.branch_2', 'r.B.c-d']) {
        const result = await branch.checkpoint(input(['shared.txt'], { runId }));
        expect(x.git('rev-parse', `run-${runId}`).trim()).toBe(result.sha);
      }
      for (const runId of ['r..b', 'r/b', 'r.b.', 'r.b.lock', 'r b', 'r:b']) {
        await expect(branch.checkpoint(input(['shared.txt'], { runId }))).rejects.toMatchObject({
          code: 'CHECKPOINT_INVALID_INPUT',
        });
      }
      for (const name of ['', '.hidden', '-x', 'a/b', '..', 'x'.repeat(129)]) {
        await expect(
          engine.worktree({ name, workTree: branchRoot(x, 'bad') }),
        ).rejects.toMatchObject({ code: 'CHECKPOINT_INVALID_INPUT' });
      }
      for (const workTree of [x.root, join(x.root, 'sub'), x.exec, join(x.exec, '.hankweave')]) {
        await expect(engine.worktree({ name: 'overlap', workTree })).rejects.toMatchObject({
          code: 'CHECKPOINT_INVALID_INPUT',
        });
      }
      await expect(engine.removeWorktree('../x')).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_INPUT',
      });
      fsck(x);
    });

    it('lets three work trees checkpoint at once, then merges them like git', async () => {
      const x = makeExecution();
      const engine = await x.open({ fsync: false });
      const base = await baseCheckpoint(x, engine);
      // Thirty small packs, so every work tree's compaction starts merging packs while the
      // others are writing theirs.
      for (let i = 0; i < 30; i++) {
        x.write(`filler/${i}.txt`, `filler ${i}\n`);
        await engine.checkpoint(input([`filler/${i}.txt`], { runId: 'filler' }));
      }
      await engine.restore(base);
      const headBefore = mainHead(x);
      const names = ['one', 'two', 'three'];
      const branches = await Promise.all(
        names.map((name) => engine.worktree({ name, workTree: branchRoot(x, name) })),
      );
      await Promise.all(branches.map((branch) => branch.restore(base)));
      const tracked = names.map(() => new Set(['shared.txt', 'docs/readme.md', 'bin/run.sh']));
      const commits: string[][] = names.map(() => []);
      const mainCommits: string[] = [];
      const rounds = 15;
      for (let round = 1; round <= rounds; round++) {
        // The main engine checkpoints agentRoot at the same time, on a branch of its own.
        x.write('main/progress.txt', `round ${round}\n`);
        const main = engine
          .checkpoint(input(['main/progress.txt'], { runId: 'exec1-main' }))
          .then((result) => mainCommits.push(result.sha));
        await Promise.all([
          main,
          ...branches.map(async (branch, b) => {
            const name = names[b] as string;
            const files = tracked[b] as Set<string>;
            const count = round % 4 === 0 ? 150 : 25;
            for (let i = 0; i < count; i++) {
              const path = `${name}/d${i % 7}/f${(i * 13 + round) % 60}.txt`;
              writeIn(branch.workTree, path, `${name} ${round} ${i}\n`.repeat(1 + (i % 20)));
              files.add(path);
            }
            // Each branch edits its own line of the shared file: a clean three-way merge.
            const text = ten.split('\n');
            text[b * 3] = `${name} round ${round}`;
            writeFileSync(join(branch.workTree, 'shared.txt'), text.join('\n'));
            const result = await branch.checkpoint(
              input([...files], { runId: `exec1.block.${name}` }),
            );
            commits[b]?.push(result.sha);
          }),
        ]);
      }
      for (const [b, name] of names.entries()) {
        const shas = commits[b] as string[];
        expect(x.git('rev-parse', `run-exec1.block.${name}`).trim()).toBe(shas.at(-1));
        expect(x.git('rev-list', `${base}..run-exec1.block.${name}`).trim().split('\n')).toEqual(
          [...shas].reverse(),
        );
      }
      expect(x.git('rev-list', `${base}..run-exec1-main`).trim().split('\n')).toEqual(
        [...mainCommits].reverse(),
      );
      fsck(x);
      // Only the main engine moved the main HEAD; each work tree's HEAD is on its own branch.
      expect(headBefore).toBe(`${base}\n`);
      expect(mainHead(x)).toBe('ref: refs/heads/run-exec1-main\n');
      for (const [b, branch] of branches.entries()) {
        expect(await branch.head()).toEqual({
          sha: commits[b]?.at(-1),
          branch: `run-exec1.block.${names[b]}`,
        });
      }
      await engine.restore(base);
      // Compaction ran while the others wrote: fewer packs than checkpoints, no object lost.
      const packs = readdirSync(join(engine.gitDir, 'objects', 'pack')).filter((name) =>
        name.endsWith('.pack'),
      );
      expect(packs.length).toBeLessThan(30 + names.length * rounds);

      const tips = commits.map((shas) => shas.at(-1) as string);
      const result = await engine.merge({
        base,
        branches: names.map((name, b) => ({ name, ref: tips[b] as string })),
        policy: 'fail',
      });
      if (!result.ok) throw new Error(`conflicts: ${JSON.stringify(result.conflicts)}`);
      const git = gitFold(x, tips);
      expect(result.tree).toBe(git.tree);
      expect(git.conflicted).toEqual([]);
      const commit = await engine.commitMerge({
        tree: result.tree,
        parents: tips,
        runId: 'exec1',
        codonId: 'join',
        codonName: 'Join',
        durationMs: 1,
      });
      await engine.restore(commit.sha);
      expect(readFileSync(join(x.root, 'shared.txt'), 'utf8')).toBe(
        lines('one round 15', '2', '3', 'two round 15', '5', '6', 'three round 15', '8', '9', '10'),
      );
      expect(x.git('status', '--porcelain')).toBe('');
      fsck(x, true);
      await Promise.all(branches.map((branch) => branch.close()));
    });

    it('leaves shared files another writer may be writing, and sweeps its own', async () => {
      const x = makeExecution();
      const engine = await x.open({ fsync: false });
      await baseCheckpoint(x, engine);
      const gitDir = engine.gitDir;
      const own = join(gitDir, 'hankweave-worktrees', 'w');
      mkdirSync(own, { recursive: true });
      // In-flight work of other engines: a ref lock, a temp pack, a pack whose .idx is not
      // written yet, a temp loose object; and this work tree's own leftovers.
      const shared = [
        join(gitDir, 'refs', 'heads', 'run-other.lock'),
        join(gitDir, 'index.lock'),
        join(gitDir, 'objects', 'pack', 'tmp_pack_0123456789ab'),
        join(gitDir, 'objects', 'pack', `pack-${'1'.repeat(40)}.pack`),
        join(gitDir, 'objects', 'ab', 'tmp_obj_0123456789ab'),
      ];
      const mine = [join(own, 'index.lock'), join(own, 'HEAD.lock')];
      for (const path of [...shared, ...mine]) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, 'x');
      }
      const workTree = branchRoot(x, 'w');
      const first = await engine.worktree({ name: 'w', workTree });
      expect(shared.filter((path) => existsSync(path))).toEqual(shared);
      expect(mine.filter((path) => existsSync(path))).toEqual([]);
      await first.close();
      // Past staleLockMs (0 here: nobody else writes) they are a killed writer's: swept.
      const second = await CheckpointEngine.open({
        executionDir: x.exec,
        worktree: { name: 'w', workTree },
        staleLockMs: 0,
      });
      expect(shared.filter((path) => existsSync(path))).toEqual([]);
      await second.close();
    });

    it('lists no branch for a ref lock another engine holds', async () => {
      const x = makeExecution();
      const engine = await x.open({ fsync: false });
      const base = await baseCheckpoint(x, engine);
      // What a concurrent writer's `refs/heads/{ref}.lock` looks like just before its rename.
      writeFileSync(join(engine.gitDir, 'refs', 'heads', 'run-other.lock'), `${base}\n`);
      const info = (await engine.list()).find((item) => item.sha === base);
      expect(info?.branches).toEqual(['run-exec1']);
    });

    it('writes nothing outside when a directory on the way became a link to outside', async () => {
      const x = makeExecution();
      const engine = await x.open({ fsync: false });
      const root = branchRoot(x, 'attack');
      const branch = await engine.worktree({ name: 'attack', workTree: root });
      writeIn(root, 'dir/a.txt', 'a\n');
      writeIn(root, 'dir/sub/b.txt', 'b\n');
      const first = await branch.checkpoint(
        input(['dir/a.txt', 'dir/sub/b.txt'], { runId: 'x.block.attack' }),
      );
      const outside = join(x.exec, 'outside');
      mkdirSync(join(outside, 'sub'), { recursive: true });
      writeFileSync(join(outside, 'keep.txt'), 'keep\n');
      writeFileSync(join(outside, 'a.txt'), 'outside a\n');
      rmSync(join(root, 'dir'), { recursive: true });
      symlinkSync(outside, join(root, 'dir'));
      await branch.restore(first.sha);
      // The link was replaced by a real directory; the target is as it was.
      expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('outside a\n');
      expect(readdirSync(outside).sort()).toEqual(['a.txt', 'keep.txt', 'sub']);
      expect(readdirSync(join(outside, 'sub'))).toEqual([]);
      expect(readFileSync(join(root, 'dir/sub/b.txt'), 'utf8')).toBe('b\n');

      // The work tree itself replaced by a link: refused, nothing written.
      rmSync(root, { recursive: true });
      symlinkSync(outside, root);
      await expect(branch.restore(first.sha)).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_PATH',
      });
      await expect(
        branch.checkpoint(input(['a.txt'], { runId: 'x.block.attack' })),
      ).rejects.toMatchObject({ code: 'CHECKPOINT_INVALID_PATH' });
      expect(readdirSync(outside).sort()).toEqual(['a.txt', 'keep.txt', 'sub']);
      await branch.close();
      await expect(engine.worktree({ name: 'attack', workTree: root })).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_PATH',
      });
      fsck(x);
    });
  });
});

const worktreeChild = childBundle('worktree-child');

describe('CheckpointEngine worktrees across processes', () => {
  beforeAll(() => worktreeChild.build(), 60_000);

  afterAll(() => worktreeChild.remove());

  it('keeps every commit of the others when one is killed mid-checkpoint', async () => {
    const x = makeExecution();
    const engine = await x.open({ fsync: false });
    const base = await baseCheckpoint(x, engine);
    const headBefore = mainHead(x);
    await engine.close();
    const rounds = 25;
    const names = ['p1', 'p2', 'p3'];
    const children: ChildUnderTest[] = names.map((name, i) =>
      spawnChild(worktreeChild.script, [x.exec, name, base, String(rounds), String(1000 + i)]),
    );
    await Promise.all(children.map((child) => child.waitForLine('ready')));
    // Kill the last one at a random moment inside a checkpoint: a few ms after it announces
    // the start of a random round (a checkpoint of 20-120 files takes tens of ms here).
    const victim = children[2] as ChildUnderTest;
    const round = 2 + Math.floor(Math.random() * 6);
    await victim.waitForLine(`start ${round}`);
    const killed = await victim.kill(Math.floor(Math.random() * 15));
    const survivors = await Promise.all(children.slice(0, 2).map((child) => child.exited));

    for (const [i, exit] of survivors.entries()) {
      expect(exit.code, exit.stderr).toBe(0);
      const shas = exit.lines
        .filter((line) => line.startsWith('committed '))
        .map((line) => line.split(' ')[2] as string);
      expect(shas).toHaveLength(rounds);
      const ref = `run-exec1.block.${names[i]}`;
      expect(x.git('rev-parse', ref).trim()).toBe(shas.at(-1));
      expect(x.git('rev-list', `${base}..${ref}`).trim().split('\n')).toEqual(shas.reverse());
    }
    fsck(x, true);
    expect(mainHead(x)).toBe(headBefore);

    // The killed one's branch: absent (killed before its first commit), its last reported
    // commit, or the one it was writing when killed (complete: fsck above read all of it).
    const reported = killed.lines
      .filter((line) => line.startsWith('committed '))
      .map((line) => line.split(' ')[2] as string);
    const previous = reported.at(-1) ?? base;
    const tip = runNativeGit(x.exec, ['rev-parse', '--verify', '-q', 'run-exec1.block.p3'], {
      allowFailure: true,
    }).stdout.trim();
    if (tip !== '' && tip !== previous) {
      expect(x.git('rev-parse', `${tip}^`).trim()).toBe(previous);
    }
    if (tip === '') expect(reported).toEqual([]);

    // Reopening its work tree works (its leftovers swept, shared ones too since nobody else
    // writes now) and it goes on from where its branch stands.
    const reopened = await CheckpointEngine.open({
      executionDir: x.exec,
      worktree: { name: 'p3', workTree: join(x.exec, 'branches', 'block', 'p3', 'agentRoot') },
      staleLockMs: 0,
      fsync: false,
    });
    writeIn(reopened.workTree, 'p3/after.txt', 'after\n');
    const again = await reopened.checkpoint(input(['p3/after.txt'], { runId: 'exec1.block.p3' }));
    expect(again.parent).toBe(tip === '' ? await reopened.resolve(base) : tip);
    expect(mainHead(x)).toBe(headBefore);
    fsck(x, true);
    await reopened.close();
  }, 120_000);
});
