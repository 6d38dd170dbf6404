import { CheckpointError } from '../errors.js';
import type { CommitMergeInput, CommitMergeResult } from '../types.js';
import type { EngineContext } from './context.js';
import { formatMessage } from './message.js';
import { hashObject, parseCommit, serializeCommit } from './objects.js';

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Commits a merged tree with several parents on branch `run-{runId}` (type `merge`, seed 002's
 * message). The work tree is not touched: `restore(sha)` writes the merge into agentRoot. If HEAD
 * is on that branch it is first detached where it is, so HEAD keeps naming the commit whose
 * files are on disk (native `git status` stays clean) until the restore moves it.
 */
export async function commitMerge(
  ctx: EngineContext,
  input: CommitMergeInput,
): Promise<CommitMergeResult> {
  const tree = typeof input.tree === 'string' ? input.tree.toLowerCase() : '';
  if (!FULL_SHA.test(tree) || !(await ctx.store.readTree(tree))) {
    throw new CheckpointError('CHECKPOINT_NOT_FOUND', `tree ${String(input.tree)} is not stored`, {
      details: { tree: String(input.tree) },
    });
  }
  if (!Array.isArray(input.parents) || input.parents.length === 0) {
    throw new CheckpointError('CHECKPOINT_INVALID_INPUT', 'a merge commit needs parents', {
      details: {},
    });
  }
  const parents: string[] = [];
  for (const ref of input.parents) {
    const sha = await ctx.history.resolve(ref);
    if (!parents.includes(sha)) parents.push(sha);
  }
  const branch = `run-${input.runId}`;
  const when = input.timestamp ?? new Date();
  const message = formatMessage(
    'merge',
    input.codonId,
    input.runId,
    input.codonName,
    when,
    input.durationMs,
  );
  const content = serializeCommit(tree, parents, when, message);
  const sha = hashObject('commit', content);
  const batch = ctx.store.batch(false);
  await batch.add(sha, 'commit', content);
  await batch.finish();
  const head = await ctx.history.headSha();
  if (head.branch === branch) await ctx.refs.setHead({ sha: head.sha });
  await ctx.refs.setBranch(branch, sha);
  ctx.history.remember(sha, parseCommit(content, sha));
  return { sha, branch, tree, parents };
}
