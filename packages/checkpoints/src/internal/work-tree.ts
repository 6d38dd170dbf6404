import { CheckpointError } from '../errors.js';
import type { EngineContext } from './context.js';

/**
 * Makes sure the work tree's own directory is a real directory before files are read or written
 * under it: a symbolic link put in its place (by an agent, or a runtime bug) would send every
 * write to the link's target. Creates it when missing and `create` is set.
 * @throws {CheckpointError} CHECKPOINT_INVALID_PATH when it is a link or not a directory.
 */
export async function assertRealWorkTree(ctx: EngineContext, create: boolean): Promise<void> {
  const stat = await ctx.io.lstat(ctx.layout.workTree);
  if (stat?.isDirectory()) return;
  if (!stat) {
    if (create) await ctx.io.fs.mkdir(ctx.layout.workTree, { recursive: true });
    return;
  }
  throw new CheckpointError(
    'CHECKPOINT_INVALID_PATH',
    `work tree ${ctx.layout.workTree} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}`,
    { details: { workTree: ctx.layout.workTree } },
  );
}
