import { errnoCode, type Fs, isMissing, nodeFs, normalizeRelative } from '@hankweave/durable-io';
import { FilesError, type FilesWarning } from './errors.js';
import type { FileNode } from './file-node.js';
import { compareUtf8 } from './internal/compare-paths.js';
import { absoluteRoot } from './internal/paths.js';

/** Options of {@link buildFileTree}. */
export interface BuildFileTreeOptions {
  /** The directory the paths are relative to; files are lstat'ed there for their mtime. */
  readonly root: string;
  /** Known mtimes (e.g. a {@link FileSnapshot}); paths found here are not stat'ed again. */
  readonly stats?: ReadonlyMap<string, { readonly mtimeMs: number }>;
  /** Called for each path skipped because it vanished or could not be stat'ed. */
  readonly onWarning?: (warning: FilesWarning) => void;
  /** The fs used for stats (its `lstatSync`); default the real one (`nodeFs`). */
  readonly fs?: Fs;
}

interface MutableNode extends FileNode {
  mtimeMs: number;
  index?: Map<string, MutableNode>;
}

/**
 * Builds the `FileNode` forest of `filetree.updated` from resolved file paths: one node per
 * file, directories made from the path segments. Children are sorted in git's tree order (byte
 * order, a directory's name taken with a trailing `/`), so a depth-first walk of the forest
 * yields the paths in `git ls-files` order. A directory's `lastModified` is
 * the newest mtime below it, not its own mtime, which moves only when entries are added or
 * removed and would also reflect untracked files.
 *
 * @throws {FilesError} FILES_PATH_ESCAPES_ROOT / FILES_INVALID_PATH for a path that is absolute,
 * climbs out with `..`, or is used both as a file and as a directory.
 */
export function buildFileTree(paths: readonly string[], options: BuildFileTreeOptions): FileNode[] {
  const rootAbs = absoluteRoot(options.root);
  const fs = options.fs ?? nodeFs;
  const top: MutableNode = directory('', '');
  for (const raw of paths) {
    const path = checkPath(raw);
    const mtimeMs = options.stats?.get(path)?.mtimeMs ?? statMtime(fs, rootAbs, path, options);
    if (mtimeMs === undefined) continue;
    insert(top, path, mtimeMs);
  }
  return finish(top).children;
}

function checkPath(raw: string): string {
  if (typeof raw !== 'string' || raw === '' || raw.includes('\0')) {
    throw new FilesError('FILES_INVALID_PATH', 'A path must be a non-empty string', {
      details: { path: String(raw) },
    });
  }
  const path = raw.startsWith('/') ? undefined : normalizeRelative(raw);
  if (path === undefined || path === '') {
    throw new FilesError('FILES_PATH_ESCAPES_ROOT', `${raw} is not inside the root`, {
      details: { path: raw },
    });
  }
  return path;
}

function statMtime(
  fs: Fs,
  rootAbs: string,
  path: string,
  options: BuildFileTreeOptions,
): number | undefined {
  try {
    const stats = fs.lstatSync(`${rootAbs === '/' ? '' : rootAbs}/${path}`, { bigint: true });
    return Number(stats.mtimeMs);
  } catch (error) {
    const errno = errnoCode(error);
    options.onWarning?.({
      code: isMissing(error) ? 'FILES_NOT_FOUND' : 'FILES_UNREADABLE',
      path,
      message: `${path} could not be stat'ed (${errno ?? 'unknown error'}); left out of the tree`,
      ...(errno ? { errno } : {}),
    });
    return undefined;
  }
}

function directory(name: string, path: string): MutableNode {
  return {
    name,
    path,
    isDirectory: true,
    children: [],
    lastModified: '',
    mtimeMs: 0,
    index: new Map(),
  };
}

function insert(top: MutableNode, path: string, mtimeMs: number): void {
  const segments = path.split('/');
  let parent = top;
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i] as string;
    const last = i === segments.length - 1;
    const index = parent.index as Map<string, MutableNode>;
    let node = index.get(name);
    if (node && node.isDirectory === last) {
      throw new FilesError('FILES_INVALID_PATH', `${path} is used both as a file and a directory`, {
        details: { path },
      });
    }
    if (!node) {
      const nodePath = segments.slice(0, i + 1).join('/');
      node = last
        ? { name, path: nodePath, isDirectory: false, children: [], lastModified: '', mtimeMs }
        : directory(name, nodePath);
      index.set(name, node);
      parent.children.push(node);
    }
    if (last) node.mtimeMs = mtimeMs;
    parent = node;
  }
}

/** Sorts, fills `lastModified` bottom-up and strips the build-only fields. */
function finish(node: MutableNode): FileNode & { mtimeMs: number } {
  const children = (node.children as MutableNode[]).map(finish);
  // Git's tree order: a directory sorts as if its name ended with '/', so that walking the tree
  // depth first gives exactly the order of `git ls-files`.
  const key = (child: FileNode) => (child.isDirectory ? `${child.name}/` : child.name);
  children.sort((a, b) => compareUtf8(key(a), key(b)));
  const mtimeMs = node.isDirectory
    ? children.reduce((newest, child) => Math.max(newest, child.mtimeMs), 0)
    : node.mtimeMs;
  return {
    name: node.name,
    path: node.path,
    isDirectory: node.isDirectory,
    children: children.map(({ mtimeMs: _unused, ...rest }) => rest) as FileNode[],
    lastModified: new Date(mtimeMs).toISOString(),
    mtimeMs,
  };
}
