import {
  type Fs,
  hasErrno,
  ignoreMissing,
  isMissing,
  moveAsideAsCorrupt,
  NO_HARD_LINK_CODES,
  syncDirectory,
  syncPath,
  writeFileAtomic,
} from '@hankweave/durable-io';
import type { StatePaths } from '../paths.js';

/** What a save needs to remember between calls. */
export interface SaveContext {
  fs: Fs;
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

/**
 * Deletes `state.json.bak` before it is linked anew. Something that cannot be unlinked (a
 * directory put there by hand) is moved aside like any damaged state file, instead of failing
 * every save from now on.
 */
const removeBackup = async (fs: Fs, path: string): Promise<void> => {
  try {
    await ignoreMissing(fs.unlink(path));
  } catch (error) {
    if (!hasErrno(error, 'EISDIR', 'EPERM')) throw error;
    await moveAsideAsCorrupt(path, { fs });
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
    await removeBackup(fs, paths.backup);
    try {
      await fs.link(paths.primary, paths.backup);
      return;
    } catch (error) {
      if (isMissing(error)) return; // No state.json yet: nothing to back up.
      if (!hasErrno(error, ...NO_HARD_LINK_CODES)) throw error;
      context.linksWork = false;
    }
  }
  try {
    await fs.copyFile(paths.primary, paths.backup);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  await syncPath(paths.backup, { fs });
};

/**
 * One durable save of `json` (seed 000 "Atomic Persistence", made durable):
 * 1. back up `state.json` to `state.json.bak` (when it holds a good save);
 * 2. write `state.json.tmp`; 3. fsync it; 4. rename it over `state.json`;
 * 5. fsync the directory, so the rename itself survives a power loss.
 * Steps 2-4 are durable-io's `writeFileAtomic` with the seed's fixed temp name, step 5 its
 * `syncDirectory` (the same calls `writeFileAtomic` makes by default, kept separate so that a
 * failed directory fsync still counts state.json as a good save: the rename happened).
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
  await writeFileAtomic(paths.primary, json, {
    fs,
    tempPath: paths.temp,
    mode: 0o644,
    syncDirectory: false,
  });
  context.primaryGood = true;
  await syncDirectory(paths.dir, { fs });
};

/**
 * Moves unusable state files aside (`state.json.corrupt-<ms>`) before the first save after a
 * recovery, so the save neither backs up a damaged primary over a good backup nor destroys a
 * file that a newer hankweave might still read. Missing files are skipped.
 */
export const preserveRejected = async (
  fs: Fs,
  paths: readonly string[],
  stamp: number,
): Promise<string[]> => {
  const moved: string[] = [];
  for (const path of paths) {
    const target = await moveAsideAsCorrupt(path, { fs, stamp });
    if (target !== undefined) moved.push(target);
  }
  return moved;
};
