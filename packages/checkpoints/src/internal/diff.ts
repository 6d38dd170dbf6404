import { CheckpointError } from '../errors.js';
import type { DiffEntry, DiffOptions, DiffStatus } from '../types.js';
import type { EngineContext } from './context.js';
import { MODE_LINK, modeString } from './objects.js';
import { formatPatch, isBinary, type PatchSide } from './patch.js';
import { assertRelativePath } from './paths.js';
import { diffTrees, type FileRecord } from './tree-walk.js';

/** Name-status plus a unified patch per changed path between two commits' trees. */
export async function diffCommits(
  ctx: EngineContext,
  from: string,
  to: string,
  options: DiffOptions,
): Promise<DiffEntry[]> {
  const [a, b] = [await ctx.history.commit(from), await ctx.history.commit(to)];
  const filters = options.paths?.map((path) => path.replace(/\/+$/, ''));
  for (const path of filters ?? []) assertRelativePath(path);
  const changes = (await diffTrees(ctx.store, a.tree, b.tree)).filter(
    (change) =>
      !filters ||
      filters.some((path) => change.path === path || change.path.startsWith(`${path}/`)),
  );
  const wantPatch = options.patch ?? true;
  const context = options.context ?? 3;
  const entries: DiffEntry[] = [];
  for (const { path, before, after } of changes) {
    const status: DiffStatus = !before
      ? 'A'
      : !after
        ? 'D'
        : (before.mode === MODE_LINK) !== (after.mode === MODE_LINK)
          ? 'T'
          : 'M';
    const entry: DiffEntry = {
      path,
      status,
      oldMode: before ? modeString(before.mode) : null,
      newMode: after ? modeString(after.mode) : null,
      oldOid: before?.oid ?? null,
      newOid: after?.oid ?? null,
      binary: false,
      patch: '',
    };
    if (wantPatch) {
      const left = before ? await side(ctx, before) : undefined;
      const right = after ? await side(ctx, after) : undefined;
      entry.binary = isBinary(left?.content) || isBinary(right?.content);
      entry.patch = formatPatch(path, left, right, context);
    }
    entries.push(entry);
  }
  return entries;
}

async function side(ctx: EngineContext, file: FileRecord): Promise<PatchSide> {
  const object = await ctx.store.read(file.oid);
  if (object?.type !== 'blob') {
    throw new CheckpointError(
      'CHECKPOINT_REPO_CORRUPT',
      `blob ${file.oid} of ${file.path} is missing`,
      {
        details: { oid: file.oid, path: file.path },
      },
    );
  }
  return { mode: file.mode, oid: file.oid, content: object.content };
}
