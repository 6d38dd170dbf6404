import { randomBytes } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import {
  createDirectory,
  errnoCode,
  type Fs,
  findSymlinkOnPath,
  NO_HARD_LINK_CODES,
  nodeFs,
  relativeInside,
  syncDirectory,
  syncPath,
} from '@hankweave/durable-io';
import type { UnifiedFileResolver } from '@hankweave/files';
import { DATA_LINK_NAME } from '../execution/layout.js';

/** At most this many renamed names are tried for one conflicting file (reference §11). */
export const MAX_RENAME_TRIES = 100;

/** A file that could not be copied: the run fails with this (reference §1.6, since 0.9.0). */
export class OutputCopyFailure extends Error {
  constructor(
    message: string,
    /** The file, relative to agentRoot. */
    readonly file: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'OutputCopyFailure';
  }
}

/** What one copy did, paths relative to agentRoot (sources) and the output directory. */
export interface OutputCopyResult {
  copied: { source: string; destination: string }[];
  /** Files written under another name because the name was taken. */
  renamed: { original: string; resolved: string }[];
  /** Matches that were left alone, and why (a symlink that leads out of agentRoot). */
  skipped: { path: string; reason: string }[];
  /** Globs that matched no file. */
  unmatched: string[];
}

export interface CopyOutputsOptions {
  agentRoot: string;
  outputDirectory: string;
  globs: readonly string[];
  resolver: UnifiedFileResolver;
  /** Replace a file of the same name instead of renaming the new one. */
  overwrite: boolean;
  /** Paths (relative to agentRoot) already copied by this codon: not copied twice. */
  alreadyCopied?: Set<string>;
  fs?: Fs;
  now?: () => number;
}

/**
 * Copies the files that `globs` match under agentRoot into the output directory, keeping their
 * paths relative to agentRoot (reference §1.6). Matching is the runtime's file resolver: git's
 * ignore rules, never `read_only_data_source` (the user's own data, which they already have),
 * never through a symlinked directory. A symlinked file is copied as the file it points to only
 * when that file is inside agentRoot (and not in the data link); otherwise it is skipped and
 * reported. Each file is written to a temporary name, fsynced and then moved into place, so the
 * output directory never holds a torn file under a final name. A taken name is not overwritten
 * unless `overwrite`: the file goes to `name_<counter>_<timestamp>.ext` instead.
 *
 * @throws {OutputCopyFailure} naming the first file that could not be copied.
 */
export async function copyOutputs(options: CopyOutputsOptions): Promise<OutputCopyResult> {
  const fs = options.fs ?? nodeFs;
  const result: OutputCopyResult = { copied: [], renamed: [], skipped: [], unmatched: [] };
  const seen = options.alreadyCopied ?? new Set<string>();
  const realRoot = await realpath(options.agentRoot);
  for (const glob of options.globs) {
    let matches: string[];
    try {
      matches = options.resolver.resolve(options.agentRoot, [glob]);
    } catch (error) {
      throw new OutputCopyFailure(
        `outputFiles glob "${glob}" could not be resolved: ${(error as Error).message}`,
        glob,
        error,
      );
    }
    if (matches.length === 0) result.unmatched.push(glob);
    for (const path of matches) {
      if (seen.has(path)) continue;
      seen.add(path);
      const source = await sourceOf(fs, options.agentRoot, realRoot, path);
      if ('skip' in source) {
        result.skipped.push({ path, reason: source.skip });
        continue;
      }
      const placed = await copyOne(fs, source.file, path, options);
      result.copied.push({ source: path, destination: placed });
      if (placed !== path) result.renamed.push({ original: path, resolved: placed });
    }
  }
  return result;
}

/** The file to read for a match: itself, or the target of a symlink that stays inside agentRoot. */
async function sourceOf(
  fs: Fs,
  agentRoot: string,
  realRoot: string,
  path: string,
): Promise<{ file: string } | { skip: string }> {
  const file = join(agentRoot, path);
  let stat: Awaited<ReturnType<Fs['lstat']>>;
  try {
    stat = await fs.lstat(file);
  } catch (error) {
    throw new OutputCopyFailure(
      `output file ${path} could not be read: ${(error as Error).message}`,
      path,
      error,
    );
  }
  // A FIFO, socket or device in agentRoot (an agent can make one) is not an output: copying it
  // would block on it or copy a device.
  if (!stat.isSymbolicLink()) return stat.isFile() ? { file } : { skip: 'not a regular file' };
  let target: string;
  try {
    target = await realpath(file);
  } catch {
    return { skip: 'a symlink whose target does not exist' };
  }
  const inside = relativeInside(realRoot, target);
  if (!inside || inside === DATA_LINK_NAME || inside.startsWith(`${DATA_LINK_NAME}/`)) {
    return { skip: 'a symlink that leads out of agentRoot (its target is not copied)' };
  }
  const targetStat = await fs.stat(target).catch(() => undefined);
  if (!targetStat?.isFile()) return { skip: 'a symlink to something that is not a regular file' };
  return { file: target };
}

/** Copies one file; returns where it landed, relative to the output directory. */
async function copyOne(
  fs: Fs,
  source: string,
  path: string,
  options: CopyOutputsOptions,
): Promise<string> {
  const destination = join(options.outputDirectory, path);
  const directory = dirname(destination);
  const temp = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}.hw-tmp`);
  // The copy never goes through a link inside the output directory: a directory there that is a
  // link would put the file wherever it points.
  const link = await findSymlinkOnPath(options.outputDirectory, path, { includeLast: false });
  if (link !== undefined) {
    throw new OutputCopyFailure(
      `output file ${path} would be written through the symbolic link ${link} in ${options.outputDirectory}; hankweave never writes through a link. Remove the link (or use another output directory)`,
      path,
    );
  }
  try {
    await createDirectory(directory, { fs });
    await fs.copyFile(source, temp);
    await syncPath(temp, { fs });
    let placed = path;
    if (options.overwrite) await fs.rename(temp, destination);
    else placed = await placeWithoutOverwrite(fs, temp, path, options);
    await syncDirectory(directory, { fs });
    return placed;
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    if (error instanceof OutputCopyFailure) throw error;
    throw new OutputCopyFailure(
      `output file ${path} could not be copied to ${destination}: ${(error as Error).message}`,
      path,
      error,
    );
  }
}

/**
 * Moves the temporary file to the first free name: the path itself, then up to
 * {@link MAX_RENAME_TRIES} renamed ones. A hard link claims a name atomically (it fails if the
 * name exists, so a file that appears meanwhile is never replaced); where hard links are not
 * supported the name is checked first, then renamed onto.
 */
async function placeWithoutOverwrite(
  fs: Fs,
  temp: string,
  path: string,
  options: CopyOutputsOptions,
): Promise<string> {
  const now = options.now ?? Date.now;
  for (let attempt = 0; attempt <= MAX_RENAME_TRIES; attempt++) {
    const candidate = attempt === 0 ? path : renamedPath(path, attempt, now());
    const target = join(options.outputDirectory, candidate);
    if (await claim(fs, temp, target)) return candidate;
  }
  throw new OutputCopyFailure(
    `output file ${path}: no free name in ${options.outputDirectory} after ${MAX_RENAME_TRIES} tries; empty the directory or pass --overwrite-output`,
    path,
  );
}

async function claim(fs: Fs, temp: string, target: string): Promise<boolean> {
  try {
    await fs.link(temp, target);
    await fs.unlink(temp);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') return false;
    if (!code || !NO_HARD_LINK_CODES.includes(code)) throw error;
  }
  try {
    await fs.lstat(target);
    return false;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  await fs.rename(temp, target);
  return true;
}

/** `dir/name.ext` → `dir/name_<counter>_<timestamp>.ext` (reference §1.6). */
export function renamedPath(path: string, counter: number, timestamp: number): string {
  const name = basename(path);
  // A leading dot names a hidden file, not an extension (`.env` → `.env_1_…`).
  const ext = name.startsWith('.') && extname(name) === name ? '' : extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const renamed = `${stem}_${counter}_${timestamp}${ext}`;
  const parent = dirname(path);
  return parent === '.' ? renamed : `${parent}/${renamed}`;
}
