import { CheckpointError } from '../errors.js';
import type {
  MergeConflict,
  MergeConflictKind,
  MergeInput,
  MergeResolution,
  MergeResult,
} from '../types.js';
import type { EngineContext } from './context.js';
import { type Entry, TreeMerge } from './merge-trees.js';
import { EMPTY_TREE, MODE_TREE, modeString } from './objects.js';
import { compactPacks } from './pack-compactor.js';
import { compareCodePoints } from './paths.js';
import { diffTrees } from './tree-walk.js';

const POLICIES = ['fail', 'ordered'];
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters would break marker lines
const CONTROL = /[\x00-\x1f\x7f]/;

/** A conflict as first found, with the fold steps (branch indexes) whose side lost it. */
interface Found {
  path: string;
  kind: MergeConflictKind;
  text?: string;
  losers: number[];
}

/**
 * Merges the branches' trees into one against the base tree, folding in block order:
 * merged = merge3(base, merged, branch_i), starting from the base. Disjoint changes combine
 * (git's octopus semantics); a conflict's `ours` side is always made of earlier branches, so the
 * walk's own settlement (ours wins, clean hunks of both kept) is the `ordered` policy. With
 * `fail` the fold still runs to the end to report every conflict, then nothing is written.
 */
export async function mergeBranches(ctx: EngineContext, input: MergeInput): Promise<MergeResult> {
  assertMergeInput(input);
  const baseSha = await ctx.history.resolve(input.base);
  const baseTree = (await ctx.history.commit(baseSha)).tree;
  const branches: { name: string; tree: string }[] = [];
  for (const branch of input.branches) {
    const sha = await ctx.history.resolve(branch.ref);
    branches.push({ name: branch.name, tree: (await ctx.history.commit(sha)).tree });
  }

  const merge = new TreeMerge(ctx.store, async () => ({ ours: '', base: 'base', theirs: '' }));
  // Which branches changed a path from the base: looked up only for conflicts.
  const changers = async (path: string, upTo: number): Promise<number[]> => {
    const before = await lookup(merge, baseTree, path);
    const found: number[] = [];
    for (let i = 0; i < upTo; i++) {
      const entry = await lookup(merge, (branches[i] as { tree: string }).tree, path);
      if (!sameEntry(entry, before)) found.push(i);
    }
    return found;
  };
  const found = new Map<string, Found>();
  let merged = baseTree;
  for (let step = 0; step < branches.length; step++) {
    const branch = branches[step] as { name: string; tree: string };
    merge.conflicts = [];
    merge.labels = async (path) => {
      const ours = (await changers(path, step)).map((i) => branches[i]?.name).join('+');
      return { ours: ours || 'merged', base: 'base', theirs: branch.name };
    };
    merged = (await merge.mergeTrees(baseTree, merged, branch.tree)) ?? EMPTY_TREE;
    for (const conflict of merge.conflicts) {
      const known = found.get(conflict.path);
      if (known) known.losers.push(step);
      else found.set(conflict.path, { ...conflict, losers: [step] });
    }
  }

  const paths = [...found.keys()].sort(compareCodePoints);
  if (input.policy === 'fail' && paths.length > 0) {
    const conflicts: MergeConflict[] = [];
    for (const path of paths) {
      const { kind, text } = found.get(path) as Found;
      const sides = [];
      for (const i of await changers(path, branches.length)) {
        const entry = await lookup(merge, (branches[i] as { tree: string }).tree, path);
        sides.push({
          branch: (branches[i] as { name: string }).name,
          sha: entry?.oid ?? null,
          mode: entry ? modeString(entry.mode) : null,
        });
      }
      conflicts.push({ path, kind, sides, ...(text === undefined ? {} : { text }) });
    }
    return { ok: false, conflicts };
  }

  await writeReachable(ctx, merge, merged);
  const resolved: MergeResolution[] = [];
  for (const path of paths) {
    const { kind, losers } = found.get(path) as Found;
    const winner = (await changers(path, branches.length))[0] ?? 0;
    resolved.push({
      path,
      kind,
      winner: (branches[winner] as { name: string }).name,
      others: losers.map((i) => (branches[i] as { name: string }).name),
    });
  }
  const changed = (await diffTrees(ctx.store, baseTree, merged)).map((change) => change.path);
  return { ok: true, tree: merged, changed, resolved };
}

/** Writes the merge's new objects that the result reaches (not those of earlier fold steps). */
async function writeReachable(ctx: EngineContext, merge: TreeMerge, root: string): Promise<void> {
  const wanted = new Set<string>();
  const visit = (oid: string): void => {
    const object = merge.pending.get(oid);
    if (!object || wanted.has(oid)) return;
    wanted.add(oid);
    for (const entry of object.entries ?? []) visit(entry.oid);
  };
  visit(root);
  if (wanted.size === 0) return;
  const batch = ctx.store.batch(wanted.size >= ctx.packThreshold);
  for (const oid of wanted) {
    const object = merge.pending.get(oid);
    if (object) await batch.add(oid, object.type, object.content);
  }
  await batch.finish();
  for (const oid of wanted) {
    const entries = merge.pending.get(oid)?.entries;
    if (entries) ctx.store.rememberTree(oid, entries);
  }
  try {
    if (batch.packed) await compactPacks(ctx.io, ctx.layout, ctx.store);
  } catch {
    // upkeep only, retried by the next write
  }
}

/** The entry at `path` in a tree (a file, symlink or directory), or undefined. */
async function lookup(merge: TreeMerge, tree: string, path: string): Promise<Entry | undefined> {
  let current: Entry = { mode: MODE_TREE, oid: tree };
  for (const name of path.split('/')) {
    if (current.mode !== MODE_TREE) return undefined;
    const next = (await merge.readTree(current.oid)).find((entry) => entry.name === name);
    if (!next) return undefined;
    current = next;
  }
  return current;
}

const sameEntry = (x: Entry | undefined, y: Entry | undefined): boolean =>
  x === y || (x !== undefined && y !== undefined && x.oid === y.oid && x.mode === y.mode);

/** Throws `CHECKPOINT_INVALID_INPUT` for a bad policy, an empty list or an unusable name. */
function assertMergeInput(input: MergeInput): void {
  const bad = (message: string, details: Record<string, unknown>): never => {
    throw new CheckpointError('CHECKPOINT_INVALID_INPUT', message, { details });
  };
  if (!POLICIES.includes(input.policy))
    bad(`unknown merge policy ${JSON.stringify(input.policy)}`, { policy: String(input.policy) });
  if (!Array.isArray(input.branches) || input.branches.length === 0)
    bad('merge needs at least one branch', {});
  const names = new Set<string>();
  for (const branch of input.branches) {
    // The name goes into conflict marker lines: one printable line.
    if (typeof branch?.name !== 'string' || branch.name === '' || CONTROL.test(branch.name))
      bad('a branch name must be one non-empty line', { name: String(branch?.name) });
    if (names.has(branch.name))
      bad(`branch name ${branch.name} is used twice`, { name: branch.name });
    names.add(branch.name);
    if (typeof branch.ref !== 'string') bad('a branch ref must be a string', { name: branch.name });
  }
}
