import { CheckpointError } from '../errors.js';
import type { Io } from './io.js';

/**
 * Makes sure a work tree's own directory is a real directory before files are read or written
 * under it: a symbolic link put in its place (by an agent, or a runtime bug) would send every
 * write to the link's target. Creates it when missing and `create` is set.
 * @throws {CheckpointError} CHECKPOINT_INVALID_PATH when it is a link or not a directory.
 */
export async function assertRealWorkTree(io: Io, workTree: string, create: boolean): Promise<void> {
  const stat = await io.lstat(workTree);
  if (stat?.isDirectory()) return;
  if (!stat) {
    if (create) await io.fs.mkdir(workTree, { recursive: true });
    return;
  }
  throw new CheckpointError(
    'CHECKPOINT_INVALID_PATH',
    `work tree ${workTree} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}`,
    { details: { workTree } },
  );
}
