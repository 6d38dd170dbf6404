import { dirname, join, sep } from 'node:path';
import {
  type Fs,
  isMissing,
  moveAsideAsCorrupt,
  nodeFs,
  normalizeRelative,
  writeFileAtomic,
} from '@hankweave/durable-io';
import {
  type ArchiveManifest,
  type ArchiveManifestEntry,
  archiveManifestSchema,
  type LoopContext,
} from '@hankweave/types';
import { toJsonFile } from '../internal/json-file.js';

/** Where an execution keeps what `archiveOnSuccess` moves (seed 001, reference §5.6). */
export interface ArchiveLocation {
  /** The execution directory: manifest `archivePath`s are relative to it. */
  executionDir: string;
  /** `<exec>/agentRoot`: manifest `sourcePath`s are relative to it. */
  agentRoot: string;
  /** `<exec>/rigArchive`: outside agentRoot, so no checkpoint ever tracks it. */
  rigArchive: string;
  /** `<exec>/.hankweave/archive-manifest.json`. */
  manifestPath: string;
  /** The data link's name inside agentRoot: nothing in it is ever moved. */
  dataLinkName: string;
  /** The file system to go through (default the real one; tests inject faults). */
  fs?: Fs;
}

/** One archiving: the paths to move, where to, and what the manifest records of them. */
export interface ArchiveRequest {
  /** Paths relative to agentRoot (POSIX): files, or directories moved whole (rig copy targets). */
  sources: readonly string[];
  /** The folder under rigArchive: `<codonId>`, `<loopId>-<iteration>/<codonId>` or `<loopId>-loop`. */
  archiveDir: string;
  codonId: string;
  loopContext?: LoopContext;
  /** The checkpoint the archive belongs to: rollback past it restores the files. */
  checkpointSha: string | null;
  timestamp: string;
}

/** A path that could not be moved, and why. */
export type FailedPath = {
  path: string;
  error: string;
};

/** What {@link moveToArchive} did: moved paths (agentRoot-relative) and refused or failed ones. */
export interface ArchiveResult {
  archivedPaths: string[];
  failedPaths: FailedPath[];
}

/** What {@link restoreFromArchive} did for one codon's entries. */
export interface RestoreReport {
  codonId: string;
  restoredPaths: string[];
  failedPaths: FailedPath[];
}

const MANIFEST_VERSION = '1.0.0';

/**
 * Reads the manifest. Missing means empty; an unreadable or invalid one is moved aside as
 * corrupt (its bytes kept for a person) and an empty one is used, so archiving never stops a run.
 */
export async function readArchiveManifest(location: ArchiveLocation): Promise<ArchiveManifest> {
  const fs = location.fs ?? nodeFs;
  let text: string;
  try {
    text = await fs.readFile(location.manifestPath, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { version: MANIFEST_VERSION, entries: [] };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = archiveManifestSchema.safeParse(parsed);
  if (result.success) return result.data;
  await moveAsideAsCorrupt(location.manifestPath, { fs });
  return { version: MANIFEST_VERSION, entries: [] };
}

async function writeManifest(location: ArchiveLocation, manifest: ArchiveManifest): Promise<void> {
  await writeFileAtomic(location.manifestPath, toJsonFile(manifest), {
    ...(location.fs ? { fs: location.fs } : {}),
  });
}

/**
 * Why a path may not be moved, or undefined when it may: it must be a plain relative path inside
 * agentRoot, outside the data link (the user's data is never touched), and reached through real
 * directories only (a symlinked parent could lead into the user's data or anywhere else).
 */
async function refusal(
  location: ArchiveLocation,
  root: string,
  relativePath: string,
): Promise<string | undefined> {
  const fs = location.fs ?? nodeFs;
  const normal = normalizeRelative(relativePath);
  if (normal === undefined || normal === '' || normal !== relativePath) {
    return 'not a plain path relative to its root';
  }
  const parts = normal.split('/');
  if (root === location.agentRoot && parts[0] === location.dataLinkName) {
    return `inside ${location.dataLinkName}: the user's data is never moved`;
  }
  let current = root;
  for (const part of parts.slice(0, -1)) {
    current = join(current, part);
    try {
      if ((await fs.lstat(current)).isSymbolicLink()) {
        return `reached through the symbolic link ${part}: only real directories are archived`;
      }
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }
  return undefined;
}

async function exists(fs: Fs, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/**
 * Moves `sources` from agentRoot into `rigArchive/<archiveDir>/<source>` (reference §5.6): a
 * missing source is skipped (a success), an existing archive path is overwritten, a refused or
 * failed path is reported and the rest go on.
 *
 * Order, for crashes: the manifest entries are written (durably) BEFORE any file moves, and each
 * move is one rename. So at every instant each path is either at its source or at the archive path
 * its entry names, and nothing ever sits in rigArchive without an entry; an entry whose move never
 * happened is recognised on restore (archive missing, source present: nothing to move back).
 * After a failed move the entries of the failed paths are dropped again.
 */
export async function moveToArchive(
  location: ArchiveLocation,
  request: ArchiveRequest,
): Promise<ArchiveResult> {
  const fs = location.fs ?? nodeFs;
  const failedPaths: FailedPath[] = [];
  const found: string[] = [];
  for (const source of new Set(request.sources)) {
    const refused =
      (await refusal(location, location.agentRoot, source)) ??
      (await refusal(location, location.rigArchive, `${request.archiveDir}/${source}`));
    if (refused) {
      failedPaths.push({ path: source, error: refused });
      continue;
    }
    // A missing source is a skipped success (reference §5.6).
    if (await exists(fs, join(location.agentRoot, source))) found.push(source);
  }
  // A path under another source moves with it: archiving it apart would give one file two
  // entries, and restoring the outer directory would then delete what the inner entry restored.
  const candidates = found.filter(
    (source) => !found.some((other) => other !== source && source.startsWith(`${other}/`)),
  );
  if (candidates.length === 0) return { archivedPaths: [], failedPaths };
  const archivePathOf = (source: string) => ['rigArchive', request.archiveDir, source].join('/');
  const entries: ArchiveManifestEntry[] = candidates.map((source) => ({
    sourcePath: source,
    archivePath: archivePathOf(source),
    codonId: request.codonId,
    ...(request.loopContext ? { loopContext: request.loopContext } : {}),
    checkpointSha: request.checkpointSha,
    timestamp: request.timestamp,
  }));
  const manifest = await readArchiveManifest(location);
  const replaced = new Set(entries.map((entry) => entry.archivePath));
  // A collision overwrites: the older entry for the same archive path goes with its file.
  const kept = manifest.entries.filter((entry) => !replaced.has(entry.archivePath));
  await writeManifest(location, { ...manifest, entries: [...kept, ...entries] });

  const archivedPaths: string[] = [];
  const failedNow = new Set<string>();
  for (const source of candidates) {
    const from = join(location.agentRoot, source);
    const to = join(location.executionDir, archivePathOf(source));
    try {
      await fs.mkdir(dirname(to), { recursive: true });
      await fs.rm(to, { recursive: true, force: true });
      await fs.rename(from, to);
      archivedPaths.push(source);
    } catch (error) {
      failedNow.add(source);
      failedPaths.push({ path: source, error: (error as Error).message });
    }
  }
  if (failedNow.size > 0) {
    await writeManifest(location, {
      ...manifest,
      entries: [...kept, ...entries.filter((entry) => !failedNow.has(entry.sourcePath))],
    });
  }
  return { archivedPaths, failedPaths };
}

/**
 * Moves the selected manifest entries back to their sources (rollback, reference §5.6/§5.9),
 * newest entry first so that when two entries share a source the oldest content ends up in place.
 * An entry whose archive is missing while its source exists was never moved (a crash between the
 * manifest write and the move): it counts as restored. Restored entries, and entries whose file is
 * nowhere, leave the manifest; entries whose move back failed stay for a later rollback. Empty
 * archive folders are pruned. Returns one report per codon, in the order first met (newest first).
 */
export async function restoreFromArchive(
  location: ArchiveLocation,
  select: (entry: ArchiveManifestEntry) => boolean,
): Promise<RestoreReport[]> {
  const fs = location.fs ?? nodeFs;
  const manifest = await readArchiveManifest(location);
  const selected = manifest.entries.filter(select).reverse();
  if (selected.length === 0) return [];
  const reports = new Map<string, RestoreReport>();
  const done = new Set<ArchiveManifestEntry>();
  const emptied = new Set<string>();
  for (const entry of selected) {
    const report = reports.get(entry.codonId) ?? {
      codonId: entry.codonId,
      restoredPaths: [],
      failedPaths: [],
    };
    reports.set(entry.codonId, report);
    const fail = (error: string) => report.failedPaths.push({ path: entry.sourcePath, error });
    const archiveRelative = entry.archivePath.startsWith('rigArchive/')
      ? entry.archivePath.slice('rigArchive/'.length)
      : undefined;
    const refused =
      archiveRelative === undefined
        ? 'the archive path is not under rigArchive'
        : ((await refusal(location, location.agentRoot, entry.sourcePath)) ??
          (await refusal(location, location.rigArchive, archiveRelative)));
    if (refused || archiveRelative === undefined) {
      fail(refused ?? 'the archive path is not under rigArchive');
      continue;
    }
    const from = join(location.rigArchive, archiveRelative);
    const to = join(location.agentRoot, entry.sourcePath);
    try {
      if (await exists(fs, from)) {
        await fs.mkdir(dirname(to), { recursive: true });
        await fs.rm(to, { recursive: true, force: true });
        await fs.rename(from, to);
        emptied.add(dirname(from));
      } else if (!(await exists(fs, to))) {
        done.add(entry);
        fail('missing from the archive and from agentRoot');
        continue;
      }
      done.add(entry);
      report.restoredPaths.push(entry.sourcePath);
    } catch (error) {
      fail((error as Error).message);
    }
  }
  await writeManifest(location, {
    ...manifest,
    entries: manifest.entries.filter((entry) => !done.has(entry)),
  });
  for (const dir of emptied) await pruneEmpty(fs, location.rigArchive, dir);
  return [...reports.values()];
}

/** Removes `dir` and its parents up to (not including) `root` while they are empty. */
async function pruneEmpty(fs: Fs, root: string, dir: string): Promise<void> {
  let current = dir;
  while (current.startsWith(`${root}${sep}`)) {
    try {
      await fs.rmdir(current);
    } catch {
      return; // not empty, or already gone: stop here
    }
    current = dirname(current);
  }
}
