import { mkdir, rename, rmdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import {
  errnoCode,
  findSymlinkOnPath,
  isMissing,
  syncDirectory,
  writeFileAtomic,
} from '@hankweave/durable-io';
import type { TreeListing } from '@hankweave/files';
import { RuntimeError } from '../errors.js';
import { DEBRIS_MANIFEST, type DebrisManifest } from '../execution/layout.js';
import type { RuntimeContext } from '../runtime/runtime-context.js';
import { listAgentRoot, readListing } from './checkpoint-listing.js';

/** What a rollback moved out of agentRoot (`rollback.completed`'s `debris`, the manifest). */
export interface DebrisMove {
  /** The debris directory, relative to the execution directory (`.hankweave/debris/{runId}`). */
  directory: string;
  /** Paths relative to agentRoot, now under `{directory}/agentRoot/`. */
  files: string[];
  /** Directories that did not exist at the checkpoint and were empty once their files moved. */
  removedDirectories: string[];
  /** Paths left in place, with why (a link on the way, a failed rename). */
  failed: { path: string; error: string }[];
}

/**
 * Moves aside everything in agentRoot that was not there at checkpoint `sha`: files the undone
 * codons created, tracked by the patterns or not (an interrupted Write's temp file, a codon's
 * scratch output), so the tree is as the checkpoint left it. Nothing is deleted: files go to
 * `.hankweave/debris/{runId}/agentRoot/` with a manifest. Left alone: whatever existed at the
 * checkpoint (the restore that follows puts tracked content back), the data link, and what the
 * checkpoint's own .gitignore rules ignore (build output).
 *
 * Never through a link: the walk does not follow symlinks (a link the agent made is moved as a
 * link), and each move first checks that no directory on its way has since become one.
 *
 * Returns undefined when the checkpoint has no listing (then nothing is moved, with a warning).
 */
export async function moveDebris(
  context: RuntimeContext,
  sha: string,
  runId: string,
): Promise<DebrisMove | undefined> {
  const found = await readListing(context, sha);
  if ('missing' in found) {
    context.log.warn(`Rollback to ${sha.slice(0, 7)}: ${found.missing}; untracked files stay`);
    return undefined;
  }
  const { listing } = found;
  const { agentRoot } = context.layout;
  const existed = new Set(listing.untracked);
  for (const file of await context.engine.files(sha)) existed.add(file.path);
  const existedDirectories = new Set(listing.directories);
  const now = await listUnderRules(context, listing.ignoreFiles);
  const debris = now.files.filter((path) => !existed.has(path));
  const newDirectories = now.directories.filter((path) => !existedDirectories.has(path));
  if (debris.length === 0 && newDirectories.length === 0) return undefined;

  const target = await createDebrisDirectory(context, runId);
  const move: DebrisMove = {
    directory: relative(context.layout.executionDir, target),
    files: [],
    removedDirectories: [],
    failed: [],
  };
  const links = new Map<string, string | undefined>();
  const linkOnWay = async (path: string): Promise<string | undefined> => {
    const parent = dirname(path);
    if (parent === '.') return undefined;
    if (!links.has(parent)) {
      links.set(parent, await findSymlinkOnPath(agentRoot, parent, { includeLast: true }));
    }
    return links.get(parent);
  };
  const touched = new Set<string>();
  for (const path of debris) {
    const link = await linkOnWay(path);
    if (link !== undefined) {
      move.failed.push({ path, error: `left in place: ${link} on its way is a symbolic link` });
      continue;
    }
    const destination = join(target, 'agentRoot', path);
    try {
      await mkdir(dirname(destination), { recursive: true });
      await rename(join(agentRoot, path), destination);
      move.files.push(path);
      touched.add(dirname(join(agentRoot, path)));
      touched.add(dirname(destination));
    } catch (error) {
      // Gone since the walk (a leftover process removed it) is not a failure.
      if (!isMissing(error)) move.failed.push({ path, error: (error as Error).message });
    }
  }
  // Deepest first, so a new directory inside another empties it.
  for (const path of [...newDirectories].reverse()) {
    if ((await linkOnWay(`${path}/x`)) !== undefined) continue;
    try {
      await rmdir(join(agentRoot, path));
      move.removedDirectories.push(path);
      touched.add(dirname(join(agentRoot, path)));
    } catch (error) {
      // Not empty: it holds ignored files (build output), which stay, and so does it.
      if (!['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR'].includes(errnoCode(error) ?? '')) {
        move.failed.push({ path, error: (error as Error).message });
      }
    }
  }
  for (const directory of touched) await syncDirectory(directory).catch(() => undefined);
  const manifest: DebrisManifest = {
    version: 1,
    runId,
    checkpoint: sha,
    movedAt: context.clock().toISOString(),
    ...move,
  };
  await writeFileAtomic(join(target, DEBRIS_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return move;
}

/**
 * A new directory `.hankweave/debris/{runId}` (`{runId}-2`... when an earlier rollback of the
 * same run used that name). `.hankweave` is the runtime's, but it is checked all the same: a
 * link there would take the moved files out of the execution.
 */
async function createDebrisDirectory(context: RuntimeContext, runId: string): Promise<string> {
  const { debrisDir, executionDir } = context.layout;
  const link = await findSymlinkOnPath(executionDir, relative(executionDir, debrisDir), {
    includeLast: true,
  });
  if (link !== undefined) {
    throw new RuntimeError(
      'RUNTIME_UNSAFE_PATH',
      `${join(executionDir, link)} is a symbolic link; a rollback never moves files through a link. Remove it and roll back again`,
      { details: { path: debrisDir, link: join(executionDir, link) } },
    );
  }
  await mkdir(debrisDir, { recursive: true });
  const safe = runId.replace(/[^A-Za-z0-9._-]/g, '_');
  const base = safe === '' || /^\.+$/.test(safe) ? 'run' : safe;
  for (let attempt = 1; ; attempt++) {
    const path = join(debrisDir, attempt === 1 ? base : `${base}-${attempt}`);
    try {
      await mkdir(path);
      return path;
    } catch (error) {
      // Taken by an earlier rollback (or anything else): never reuse a name.
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
  }
}

/**
 * agentRoot now, under the ignore rules recorded with the checkpoint. When the rules on disk are
 * those same rules (the usual case: no codon since touched an ignore file), that is agentRoot's
 * listing as it stands, which a watched agentRoot answers from its events; otherwise a walk
 * applies the recorded rules. An unwatched agentRoot is walked once, under the recorded rules
 * (the same listing when they are the rules on disk), not listed first and then walked again.
 */
async function listUnderRules(
  context: RuntimeContext,
  ignoreFiles: Readonly<Record<string, string>>,
): Promise<TreeListing> {
  if (context.fileWatch?.watching) {
    const current = await listAgentRoot(context);
    if (sameRecords(current.ignoreFiles, ignoreFiles)) return current;
  }
  const walked = context.resolver.listTree(context.layout.agentRoot, { ignoreFiles });
  for (const warning of walked.warnings) context.log.warn(`File scan: ${warning.message}`);
  return walked;
}

function sameRecords(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && b[key] === a[key])
  );
}
