import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { readRegularFileSync, relativeInside } from '@hankweave/durable-io';
import { sortPaths } from './internal/compare-paths.js';
import { createExcludedNameTest } from './internal/excluded-names.js';
import { createRuleFile, IgnoreLevel } from './internal/ignore-levels.js';

/**
 * The rules a rig copy (and a bundle) is filtered by when the hank root has no `.gitignore`:
 * dependency trees, build output, virtual environments, caches, logs and OS litter. A hank root
 * with a `.gitignore` (even an empty one) uses that file instead, and none of these.
 */
export const DEFAULT_COPY_IGNORES: readonly string[] = Object.freeze([
  'node_modules/',
  'dist/',
  'build/',
  '.venv/',
  'venv/',
  '__pycache__/',
  '*.pyc',
  '*.log',
  '.DS_Store',
  'coverage/',
  '.next/',
  '.turbo/',
  '.cache/',
]);

/** Where the rules of a copy came from: the hank root's `.gitignore`, or {@link DEFAULT_COPY_IGNORES}. */
export type CopyRuleSource = 'gitignore' | 'defaults';

/** One file a copy takes. */
export interface CopyTreeFile {
  /** POSIX path relative to the hank root. */
  readonly path: string;
  /** The permission bits (the executable bit is kept by copies and bundles). */
  readonly mode: number;
  readonly size: number;
}

/** What a copy of one path of the hank directory takes and skips. */
export interface CopyTreeListing {
  /** The copied path relative to the hank root, POSIX, without `./` ('' for the root itself). */
  readonly from: string;
  readonly kind: 'file' | 'directory';
  readonly source: CopyRuleSource;
  /**
   * True when `from` itself matches a rule: it is copied anyway, since the hank names it, with
   * nothing under it filtered (a file under an ignored directory is ignored by git's rules too).
   */
  readonly rootIgnored: boolean;
  /** Files to copy, sorted (byte order). */
  readonly files: readonly CopyTreeFile[];
  /** Directories to create (relative to the hank root), parents first. */
  readonly directories: readonly string[];
  /** Entries skipped by a rule (a skipped directory is one entry; it is never read). */
  readonly ignored: readonly { readonly path: string; readonly directory: boolean }[];
  /** Symbolic links that are not ignored: a copy refuses them (it never follows a link). */
  readonly links: readonly string[];
  /** FIFOs, sockets, devices that are not ignored: a copy refuses them too. */
  readonly special: readonly string[];
  /** Directories that could not be read. */
  readonly unreadable: readonly string[];
}

/** Options of {@link listCopyTree}. */
export interface ListCopyTreeOptions {
  /** Paths (relative to the hank root) left out whatever the rules say, e.g. a generated lock. */
  readonly exclude?: readonly string[];
}

/** A `.gitignore` larger than this is not rules but an accident; it is skipped. */
const MAX_GITIGNORE_BYTES = 1_048_576;

/**
 * Which rules apply in `hankRoot`: its `.gitignore` when it is a regular file there (never
 * through a link), else the defaults.
 */
export function copyRuleSource(hankRoot: string): CopyRuleSource {
  return rulesFileOf(resolve(hankRoot)) !== undefined ? 'gitignore' : 'defaults';
}

/**
 * Lists what a rig copy of `from` (a path relative to `hankRoot`) takes, with git's ignore
 * semantics: the hank root's `.gitignore` (or, when it has none, {@link DEFAULT_COPY_IGNORES} in
 * its place) and every `.gitignore` in a directory between the root and the copied tree or inside
 * it, each rule relative to its own directory, the closest file deciding. Paths are matched
 * relative to the hank root, so `templates/**\/cache/` works. `.git`, `.hankweave` and the
 * checkpoint repository are never taken.
 *
 * Never follows a symlink, never reads a FIFO (a `.gitignore` that is not a regular file is
 * skipped), never descends into an ignored directory. A file named as `from` is listed even when
 * a rule matches it. Synchronous: it only stats and lists.
 *
 * @throws {Error} with `code` ENOENT when `from` does not exist, EINVAL when it is outside the
 *   root, ELOOP when the way to it passes through a symlink.
 */
export function listCopyTree(
  hankRoot: string,
  from: string,
  options: ListCopyTreeOptions = {},
): CopyTreeListing {
  const root = resolve(hankRoot);
  const absolute = resolve(root, from);
  const rel = relativeInside(root, absolute);
  if (rel === undefined) {
    throw Object.assign(new Error(`${from} is outside the hank directory ${root}`), {
      code: 'EINVAL',
    });
  }
  const rootRules = rulesFileOf(root);
  const source: CopyRuleSource = rootRules !== undefined ? 'gitignore' : 'defaults';
  const excluded = createExcludedNameTest();
  const exclude = new Set(options.exclude ?? []);
  let level: IgnoreLevel | undefined = new IgnoreLevel(
    undefined,
    '',
    createRuleFile(rootRules ?? DEFAULT_COPY_IGNORES.join('\n'), '', false),
    false,
  );
  // Down from the root to the copied path: every directory on the way adds its .gitignore, and
  // any step may itself be ignored (then the rest is taken as named, unfiltered).
  const segments = rel === '' ? [] : rel.split('/');
  let rootIgnored = false;
  let dirRel = '';
  for (const [index, segment] of segments.entries()) {
    const stats = lstatSync(join(root, dirRel, segment));
    if (stats.isSymbolicLink() && index < segments.length - 1) {
      throw Object.assign(
        new Error(
          `${from} passes through the symlink ${dirRel}${segment}; a copy never follows one`,
        ),
        { code: 'ELOOP' },
      );
    }
    const isDirectory = stats.isDirectory();
    if (!rootIgnored && (excluded(segment) || level?.childTest(dirRel)(segment, isDirectory)))
      rootIgnored = true;
    if (index < segments.length - 1 || isDirectory) {
      dirRel = `${dirRel}${segment}/`;
      level = levelFor(root, dirRel, level);
    }
  }
  const top = lstatSync(absolute);
  const files: CopyTreeFile[] = [];
  const directories: string[] = [];
  const ignored: { path: string; directory: boolean }[] = [];
  const links: string[] = [];
  const special: string[] = [];
  const unreadable: string[] = [];
  const base = { from: rel, source, rootIgnored };
  if (top.isSymbolicLink()) {
    return {
      ...base,
      kind: 'file',
      files,
      directories,
      ignored,
      links: [rel],
      special,
      unreadable,
    };
  }
  if (!top.isDirectory()) {
    if (top.isFile()) files.push({ path: rel, mode: top.mode & 0o777, size: top.size });
    else special.push(rel);
    return { ...base, kind: 'file', files, directories, ignored, links, special, unreadable };
  }
  // Depth first; `level` is the rules in force for the children of each pending directory.
  const pending: { dirRel: string; level: IgnoreLevel | undefined }[] = [
    { dirRel: rel === '' ? '' : `${rel}/`, level },
  ];
  while (pending.length > 0) {
    const current = pending.pop() as (typeof pending)[number];
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, current.dirRel), { withFileTypes: true });
    } catch {
      unreadable.push(current.dirRel.slice(0, -1));
      continue;
    }
    const test = rootIgnored ? undefined : current.level?.childTest(current.dirRel);
    for (const entry of entries) {
      const path = `${current.dirRel}${entry.name}`;
      if (exclude.has(path)) continue;
      const stats =
        entry.isFile() || entry.isDirectory() ? undefined : lstatOrUndefined(root, path);
      const isDirectory = entry.isDirectory() || (stats?.isDirectory() ?? false);
      // A link is tested as a file and as a directory: git would match `node_modules/` against
      // a link to a directory as a file, and refuse it; skipping it is as safe and less surprising.
      const isLink = entry.isSymbolicLink() || (stats?.isSymbolicLink() ?? false);
      if (
        excluded(entry.name) ||
        test?.(entry.name, isDirectory) ||
        (isLink && test?.(entry.name, true))
      ) {
        ignored.push({ path, directory: isDirectory });
        continue;
      }
      if (isDirectory) {
        directories.push(path);
        const childRel = `${path}/`;
        pending.push({
          dirRel: childRel,
          level: rootIgnored ? undefined : levelFor(root, childRel, current.level),
        });
      } else if (entry.isFile() || stats?.isFile()) {
        const fileStats = lstatOrUndefined(root, path);
        if (fileStats?.isFile())
          files.push({ path, mode: fileStats.mode & 0o777, size: fileStats.size });
      } else if (entry.isSymbolicLink() || stats?.isSymbolicLink()) links.push(path);
      else special.push(path);
    }
  }
  return {
    ...base,
    kind: 'directory',
    files: sortBy(files, (file) => file.path),
    directories: sortPaths(directories),
    ignored: sortBy(ignored, (entry) => entry.path),
    links: sortPaths(links),
    special: sortPaths(special),
    unreadable: sortPaths(unreadable),
  };
}

function sortBy<T>(items: T[], key: (item: T) => string): T[] {
  const order = new Map(sortPaths(items.map(key)).map((path, index) => [path, index]));
  return items.sort((a, b) => (order.get(key(a)) as number) - (order.get(key(b)) as number));
}

function lstatOrUndefined(root: string, path: string): Stats | undefined {
  try {
    return lstatSync(join(root, path));
  } catch {
    return undefined;
  }
}

/** The level for the children of `dirRel` (with a trailing slash): its .gitignore over `parent`. */
function levelFor(
  root: string,
  dirRel: string,
  parent: IgnoreLevel | undefined,
): IgnoreLevel | undefined {
  const text = rulesFileOf(join(root, dirRel));
  if (text === undefined) return parent;
  const file = createRuleFile(text, latin1(dirRel), false);
  return file.rules.length === 0 ? parent : new IgnoreLevel(parent, latin1(dirRel), file, false);
}

/**
 * The text of `dir/.gitignore` as a byte string, or undefined when there is no regular file
 * there. A link is not followed (git refuses an in-tree symlinked .gitignore); a FIFO, a socket
 * or a device is never opened for reading in a way that could block (`readRegularFileSync`
 * opens non-blocking and checks the type of what it opened, so a swap after the lstat is caught).
 */
function rulesFileOf(dir: string): string | undefined {
  const path = join(dir, '.gitignore');
  try {
    const stats = lstatSync(path);
    if (!stats.isFile()) return undefined;
    return readRegularFileSync(path, { maxBytes: MAX_GITIGNORE_BYTES }).toString('latin1');
  } catch {
    return undefined;
  }
}

function latin1(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}
