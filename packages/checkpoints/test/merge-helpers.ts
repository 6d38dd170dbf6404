import { lstatSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CheckpointEngine, MergeResult } from '../src/index.js';
import { assertRepoMatchesGit, runNativeGit } from '../src/testing.js';
import { type Execution, input, makeExecution } from './helpers.js';

/** A file as a test writes it: text, or bytes with a mode, or a symlink. */
export type FileSpec =
  | string
  | Buffer
  | { content: string | Buffer; mode: number }
  | { link: string };

/** A branch's changes: a spec per path, null to delete it. */
export type Changes = Record<string, FileSpec | null>;

function writeSpec(x: Execution, path: string, spec: FileSpec): void {
  // A file standing where a directory must be (or the reverse) goes first.
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const dir = join(x.root, ...segments.slice(0, i));
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) rmSync(dir);
  }
  const full = join(x.root, path);
  if (lstatSync(full, { throwIfNoEntry: false })?.isDirectory()) rmSync(full, { recursive: true });
  mkdirSync(join(full, '..'), { recursive: true });
  if (typeof spec === 'string' || Buffer.isBuffer(spec)) x.write(path, spec, 0o644);
  else if ('link' in spec) x.link(path, spec.link);
  else x.write(path, spec.content, spec.mode);
}

/**
 * Checkpoints `base`, then for each branch restores the base, applies its changes and
 * checkpoints on run `branch-name` (so every branch is one commit on top of the base).
 */
export async function makeBranches(
  x: Execution,
  engine: CheckpointEngine,
  base: Changes,
  branches: Record<string, Changes>,
): Promise<{ base: string; shas: Record<string, string> }> {
  const files = new Map<string, FileSpec>();
  for (const [path, spec] of Object.entries(base)) {
    if (spec === null) continue;
    writeSpec(x, path, spec);
    files.set(path, spec);
  }
  const baseSha = (await engine.checkpoint(input([...files.keys()], { runId: 'base' }))).sha;
  const shas: Record<string, string> = {};
  for (const [name, changes] of Object.entries(branches)) {
    await engine.restore(baseSha);
    const tracked = new Map(files);
    for (const [path, spec] of Object.entries(changes)) {
      if (spec !== null) continue;
      x.remove(path);
      tracked.delete(path);
      for (const other of [...tracked.keys()])
        if (other.startsWith(`${path}/`)) tracked.delete(other);
    }
    for (const [path, spec] of Object.entries(changes)) {
      if (spec === null) continue;
      writeSpec(x, path, spec);
      for (const other of [...tracked.keys()]) {
        if (other.startsWith(`${path}/`) || path.startsWith(`${other}/`)) tracked.delete(other);
      }
      tracked.set(path, spec);
    }
    shas[name] = (await engine.checkpoint(input([...tracked.keys()], { runId: name }))).sha;
  }
  await engine.restore(baseSha);
  return { base: baseSha, shas };
}

/**
 * Native git's answer for the same fold: `git merge-tree --write-tree` of the merged-so-far
 * commit with each next branch (rename detection off: the engine does none), each result
 * committed with both parents so the next merge's base is still `base`. Returns the last tree
 * and the conflicted paths of every step.
 */
export function gitFold(
  x: Execution,
  shas: readonly string[],
): { tree: string; conflicted: string[] } {
  const git = (...args: string[]) => runNativeGit(x.exec, args, { allowFailure: true });
  let commit = shas[0] as string;
  let tree = git('rev-parse', `${commit}^{tree}`).stdout.trim();
  const conflicted = new Set<string>();
  for (const sha of shas.slice(1)) {
    const out = git(
      '-c',
      'merge.renames=false',
      'merge-tree',
      '--write-tree',
      '--name-only',
      commit,
      sha,
    );
    if (out.status !== 0 && out.status !== 1) throw new Error(`git merge-tree: ${out.stderr}`);
    const lines = out.stdout.split('\n');
    tree = lines[0] as string;
    for (const line of lines.slice(1)) {
      if (line === '') break;
      conflicted.add(line);
    }
    commit = git('commit-tree', tree, '-p', commit, '-p', sha, '-m', 'fold').stdout.trim();
  }
  return { tree, conflicted: [...conflicted].sort() };
}

/** A work-tree file's text. */
export const read = (x: Execution, path: string) => readFileSync(join(x.root, path), 'utf8');
/** Lines, each with its newline. */
export const lines = (...values: string[]) => values.map((value) => `${value}\n`).join('');
/** Ten numbered lines: room for edits separated by unchanged lines. */
export const ten = lines('1', '2', '3', '4', '5', '6', '7', '8', '9', '10');

/** Builds the branches, merges them with `policy` and checks the tree against git's fold. */
export async function scenario(
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
export async function commitAndRestore(
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
