import { CheckpointError } from '../errors.js';
import type { EngineContext } from './context.js';
import { MODE_TREE } from './objects.js';
import { assertRelativePath } from './paths.js';
import { readTree } from './tree-walk.js';

/** The bytes of `path` in commit `sha` (a symlink's target text for a symlink). */
export async function readPath(ctx: EngineContext, sha: string, path: string): Promise<Buffer> {
  assertRelativePath(path);
  let tree = (await ctx.history.commit(sha)).tree;
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const entry = (await readTree(ctx.store, tree)).find((item) => item.name === segments[i]);
    const last = i === segments.length - 1;
    if (!entry || (last ? entry.mode === MODE_TREE : entry.mode !== MODE_TREE)) {
      throw new CheckpointError(
        'CHECKPOINT_NOT_FOUND',
        `${path} is not a file in checkpoint ${sha}`,
        {
          details: { sha, path },
        },
      );
    }
    if (last) {
      const object = await ctx.store.read(entry.oid);
      if (object?.type !== 'blob') {
        throw new CheckpointError(
          'CHECKPOINT_REPO_CORRUPT',
          `blob ${entry.oid} of ${path} is missing`,
          {
            details: { oid: entry.oid, path },
          },
        );
      }
      return object.content;
    }
    tree = entry.oid;
  }
  throw new CheckpointError('CHECKPOINT_NOT_FOUND', `${path} is not a file in checkpoint ${sha}`, {
    details: { sha, path },
  });
}
