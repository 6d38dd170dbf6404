import { errorCode, type StateFs } from '../fs.js';
import type { StatePaths } from '../paths.js';

// Codes meaning "this file system has no hard links here": fall back to copying.
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK', 'EINVAL']);
// Codes meaning "directories cannot be fsynced on this platform" (Windows, some FUSE mounts).
const NO_DIR_SYNC = new Set(['EISDIR', 'EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EPERM', 'EBADF']);

/** What a save needs to remember between calls. */
export interface SaveContext {
  fs: StateFs;
  paths: StatePaths;
  /** Cleared once `link` turned out to be unsupported; later saves copy directly. */
  linksWork: boolean;
  /** Created on the first save. */
  dirReady: boolean;
  /**
   * True when state.json is known to hold a good save (it was loaded from, or written by this
   * store). Only then is it backed up: after a recovery from state.json.bak, backing up the
   * damaged primary would replace the one good copy.
   */
  primaryGood: boolean;
}

const ignoreMissing = async (operation: Promise<unknown>): Promise<void> => {
  try {
    await operation;
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
};

/** fsync(2) of a file or directory by path. */
export const syncPath = async (fs: StateFs, path: string, flags = 'r'): Promise<void> => {
  const handle = await fs.open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

const syncDirectory = async (fs: StateFs, dir: string): Promise<void> => {
  try {
    await syncPath(fs, dir);
  } catch (error) {
    if (!NO_DIR_SYNC.has(errorCode(error) ?? '')) throw error;
  }
};

/**
 * Step 1: `state.json.bak` becomes the state that `state.json` holds now, i.e. the previous
 * durable save. A hard link makes that O(1) and needs no fsync of its own: the linked inode was
 * fsynced when it was written, and the directory fsync of step 5 makes the new name durable. A
 * crash between the unlink and the link loses only the backup, while state.json is intact.
 */
const backUpPrimary = async (context: SaveContext): Promise<void> => {
  const { fs, paths } = context;
  if (context.linksWork) {
    await ignoreMissing(fs.unlink(paths.backup));
    try {
      await fs.link(paths.primary, paths.backup);
      return;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return; // No state.json yet: nothing to back up.
      if (!NO_LINKS.has(code ?? '')) throw error;
      context.linksWork = false;
    }
  }
  try {
    await fs.copyFile(paths.primary, paths.backup);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  await syncPath(fs, paths.backup);
};

/**
 * One durable save of `json` (seed 000 "Atomic Persistence", made durable):
 * 1. back up `state.json` to `state.json.bak` (when it holds a good save);
 * 2. write `state.json.tmp`; 3. fsync it; 4. rename it over `state.json`;
 * 5. fsync the directory, so the rename itself survives a power loss.
 * When it resolves, `state.json` holds `json` on stable storage and `state.json.bak` the save
 * before it. A crash at any step leaves `state.json` equal to the previous save or to this one,
 * never a partial file.
 */
export const saveStateFile = async (context: SaveContext, json: string): Promise<void> => {
  const { fs, paths } = context;
  if (!context.dirReady) {
    await fs.mkdir(paths.dir, { recursive: true });
    context.dirReady = true;
  }
  if (context.primaryGood) await backUpPrimary(context);
  const handle = await fs.open(paths.temp, 'w', 0o644);
  try {
    await handle.writeFile(json);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(paths.temp, paths.primary);
  context.primaryGood = true;
  await syncDirectory(fs, paths.dir);
};

/**
 * Moves unusable state files aside (`state.json.corrupt-<ms>`) before the first save after a
 * recovery, so the save neither backs up a damaged primary over a good backup nor destroys a
 * file that a newer hankweave might still read. Missing files are skipped.
 */
export const preserveRejected = async (
  fs: StateFs,
  paths: readonly string[],
  stamp: number,
): Promise<string[]> => {
  const moved: string[] = [];
  for (const path of paths) {
    const target = `${path}.corrupt-${stamp}`;
    try {
      await fs.rename(path, target);
      moved.push(target);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }
  return moved;
};
