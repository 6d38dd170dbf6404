import type { BigIntStats, Dirent } from 'node:fs';
import { errnoCode, type Fs } from '@hankweave/durable-io';
import { FilesError, type FilesWarning } from '../errors.js';
import { sortPaths } from './compare-paths.js';
import type { IgnoreLevel, IgnoreSource } from './ignore-levels.js';
import type { ListingCache } from './listing-cache.js';
import type { CompiledPatterns } from './patterns.js';

/** Everything one walk needs; built per resolve by the resolver. */
export interface WalkContext {
  readonly rootAbs: string;
  readonly fs: Fs;
  readonly patterns: CompiledPatterns;
  readonly gitignores: IgnoreSource;
  readonly isExcludedName: (name: string) => boolean;
  readonly listings: ListingCache | undefined;
  readonly warn: (warning: FilesWarning) => void;
  /** When given, every directory the walk enters (not the root) is pushed here, in walk order. */
  readonly directories?: string[];
  /**
   * When given, fifos, sockets and devices are listed too (git skips them; a listing of the tree
   * does not), and also pushed here.
   */
  readonly specials?: string[];
}

const FILE = 0;
const DIRECTORY = 1;
const SYMLINK = 2;
const OTHER = 3;
const SLASH = 0x2f;

function kindOf(fs: Fs, entry: Dirent, prefix: string): number {
  if (entry.isFile()) return FILE;
  if (entry.isDirectory()) return DIRECTORY;
  if (entry.isSymbolicLink()) return SYMLINK;
  // DT_UNKNOWN (some network and FUSE file systems) reports no type: ask lstat. Fifos, sockets
  // and devices stay OTHER and are skipped, as git skips them.
  try {
    const stats = fs.lstatSync(prefix + entry.name, { bigint: true });
    if (stats.isFile()) return FILE;
    if (stats.isDirectory()) return DIRECTORY;
    if (stats.isSymbolicLink()) return SYMLINK;
  } catch {
    // Vanished since the listing: nothing to list.
  }
  return OTHER;
}

/**
 * Depth-first walk of the root, returning matching files and symlinks in git's order. Ignored and
 * excluded directories are pruned before they are read; symlinks are never followed.
 *
 * Synchronous on purpose, through the `Fs`'s sync methods (`readdirSync`, `lstatSync`,
 * `statSync`, `readFileSync`): a walk with `readdirSync` is several times faster than with the
 * promise API (BENCHMARKS.md), and a scan is short enough not to starve the event loop.
 */
export function walk(context: WalkContext): string[] {
  const out: string[] = [];
  const { rootAbs } = context;
  // .git/info/exclude is the lowest-precedence level, below the root .gitignore.
  const level = context.gitignores.levelFor(
    rootAbs,
    `${prefixOf(rootAbs)}.git/info/exclude`,
    '.git/info/exclude',
    '',
    undefined,
    context.warn,
  );
  visit(context, rootAbs, '', level, out);
  return out;
}

function prefixOf(dirAbs: string): string {
  return dirAbs.endsWith('/') ? dirAbs : `${dirAbs}/`;
}

function list(context: WalkContext, dirAbs: string, dirRel: string): Dirent[] | undefined {
  try {
    return context.listings
      ? context.listings.list(context.fs, dirAbs)
      : context.fs.readdirSync(dirAbs, { withFileTypes: true });
  } catch (error) {
    const errno = errnoCode(error);
    if (dirRel === '') {
      throw new FilesError('FILES_UNREADABLE', `The root ${context.rootAbs} could not be read`, {
        cause: error,
        details: { root: context.rootAbs, ...(errno ? { errno } : {}) },
      });
    }
    // A directory deleted mid-walk has nothing to list; anything else is worth a warning.
    if (errno !== 'ENOENT') {
      const path = dirRel.slice(0, -1);
      context.warn({
        code: 'FILES_UNREADABLE',
        path,
        message: `Directory ${path} could not be read (${errno ?? 'unknown error'}); skipped`,
        ...(errno ? { errno } : {}),
      });
    }
    return undefined;
  }
}

/**
 * Walks one directory below the root (`dirRel` with a trailing slash), given the ignore level in
 * force for its parent's children: what a walk of the whole root would list below it.
 */
export function visit(
  context: WalkContext,
  dirAbs: string,
  dirRel: string,
  parentLevel: IgnoreLevel | undefined,
  out: string[],
): void {
  const entries = list(context, dirAbs, dirRel);
  if (!entries) return;
  const { fs, patterns, isExcludedName } = context;
  const prefix = prefixOf(dirAbs);
  let level = parentLevel;
  for (const entry of entries) {
    if (entry.name !== '.gitignore' && !context.gitignores.everyDirectory) continue;
    const fileRel = `${dirRel}.gitignore`;
    level = context.gitignores.levelFor(
      context.rootAbs,
      `${prefix}.gitignore`,
      fileRel,
      dirRel,
      parentLevel,
      context.warn,
    );
    break;
  }
  const isIgnored = level?.childTest(dirRel);
  // Git's tree order: a directory sorts as its name plus '/'. Visiting each directory's entries in
  // that order makes the depth-first output come out in `git ls-files` order with no global sort
  // (sorting many short lists natively is cheaper than one long one).
  const keys: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (isExcludedName(name)) continue;
    const kind = kindOf(fs, entry, prefix);
    if (kind === DIRECTORY) keys.push(`${name}/`);
    else if (kind !== OTHER) keys.push(name);
    else if (context.specials) {
      keys.push(name);
      context.specials.push(dirRel + name);
    }
  }
  sortPaths(keys);
  for (const key of keys) {
    if (key.charCodeAt(key.length - 1) === SLASH) {
      const name = key.slice(0, -1);
      const rel = dirRel + name;
      if (!patterns.mayDescend(rel) || isIgnored?.(name, true)) continue;
      context.directories?.push(rel);
      visit(context, prefix + name, `${rel}/`, level, out);
    } else {
      const rel = dirRel + key;
      if (patterns.matches(rel) && !isIgnored?.(key, false)) out.push(rel);
    }
  }
}

/**
 * What a walk of the whole root would list at or below `rel` (a path relative to the root):
 * the ignore rules of its ancestors applied on the way down, `rel` itself walked when it is a
 * directory. Nothing when an ancestor is missing, not a directory (never through a symlink),
 * excluded or ignored. With `directories` and `specials` in the context (a tree listing), `rel`
 * is listed as the walk would list it, fifos and directories too.
 */
export function walkAt(context: WalkContext, rel: string, out: string[]): void {
  const { rootAbs, patterns } = context;
  const prefix = prefixOf(rootAbs);
  let level = context.gitignores.levelFor(
    rootAbs,
    `${prefix}.git/info/exclude`,
    '.git/info/exclude',
    '',
    undefined,
    context.warn,
  );
  const segments = rel.split('/');
  let dirRel = '';
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i] as string;
    if (context.isExcludedName(name)) return;
    const fileRel = `${dirRel}.gitignore`;
    level = context.gitignores.levelFor(
      rootAbs,
      prefix + fileRel,
      fileRel,
      dirRel,
      level,
      context.warn,
    );
    const path = dirRel + name;
    const stats = lstatOrUndefined(context.fs, prefix + path);
    if (!stats) return;
    const last = i === segments.length - 1;
    if (stats.isDirectory()) {
      if (!patterns.mayDescend(path) || level?.childTest(dirRel)(name, true)) return;
      if (last) {
        context.directories?.push(path);
        visit(context, prefix + path, `${path}/`, level, out);
      }
      dirRel = `${path}/`;
      continue;
    }
    // Walks never follow a symlinked directory, so nothing beneath one is ever listed.
    if (!last) return;
    const special = !(stats.isFile() || stats.isSymbolicLink());
    if (special && !context.specials) return;
    if (patterns.matches(path) && !level?.childTest(dirRel)(name, false)) {
      out.push(path);
      if (special) context.specials?.push(path);
    }
  }
}

function lstatOrUndefined(fs: Fs, path: string): BigIntStats | undefined {
  try {
    return fs.lstatSync(path, { bigint: true });
  } catch {
    return undefined;
  }
}
