import { lstatSync, readdirSync, realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInside } from '@hankweave/durable-io';

/** What {@link removeInside} did to one path. */
export type Removal =
  | { path: string; removed: 'file' | 'link' | 'directory'; entries: number }
  | { path: string; removed: false; reason: string };

/**
 * Whether `path` is a place inside `root` that can be removed without leaving it: lexically
 * inside, and every existing parent directory really inside too (a parent that is a symlink to
 * somewhere else would make `unlink` act out there). `path` itself may be a symlink: it is
 * removed as a link, never followed.
 */
export function reachableInside(root: string, path: string): boolean {
  if (!isInside(root, path) || path === root) return false;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  try {
    return isInside(realRoot, realpathSync(dirname(path)));
  } catch {
    return false;
  }
}

/**
 * Removes `path` (a file, a symlink, or a directory with everything in it) when it lies inside
 * `root`, never following a symlink: a link is unlinked, whatever it points at, and the walk of
 * a directory never enters one. Returns what it did; a path outside `root`, or under a parent
 * that leads out of it, is refused and left alone.
 */
export function removeInside(root: string, path: string): Removal {
  if (!reachableInside(root, path))
    return { path, removed: false, reason: 'outside the execution' };
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    return { path, removed: false, reason: 'already gone' };
  }
  if (stat.isSymbolicLink()) {
    unlinkSync(path);
    return { path, removed: 'link', entries: 1 };
  }
  if (!stat.isDirectory()) {
    unlinkSync(path);
    return { path, removed: 'file', entries: 1 };
  }
  return { path, removed: 'directory', entries: removeTree(path) };
}

/** Removes a real directory and its content depth first; symlinks inside are unlinked. */
function removeTree(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.isSymbolicLink()) count += removeTree(path);
    else {
      unlinkSync(path);
      count++;
    }
  }
  rmdirSync(dir);
  return count + 1;
}

/**
 * Removes the directories from `start` up to (not including) `stop` that are empty, so a
 * cleanup leaves no empty folders behind where it removed files.
 */
export function removeEmptyParents(start: string, stop: string): void {
  for (let dir = start; isInside(stop, dir) && dir !== stop; dir = dirname(dir)) {
    try {
      const stat = lstatSync(dir);
      if (!stat.isDirectory() || readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}
