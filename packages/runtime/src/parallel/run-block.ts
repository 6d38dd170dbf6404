import { sleep } from '@hankweave/durable-io';
import { currentRun } from '@hankweave/state';
import type { ExecutionCodonEntry, ParallelConfig } from '@hankweave/types';
import { budgetHalt } from '../budget/budget-gate.js';
import { RuntimeError } from '../errors.js';
import { blockConditionSkip, type ConditionSkip, conditionGate } from '../plan/condition-gate.js';
import { info, reportError } from '../runtime/runtime-context.js';
import type { BlockHost, BlockOutcome } from './block-host.js';
import { blockBase, blockConfig, branchEntries, branchProgress } from './block-lanes.js';
import { type OpenBranch, openBranch } from './branch-context.js';
import { mergeBlock } from './merge-block.js';
import { recordMerge } from './merge-record.js';

/** How one branch ended. */
type BranchEnd = { kind: 'done' } | { kind: 'idle' } | { kind: 'halted' };

/**
 * Runs parallel block `blockId` from where state.json says it stands (issue 36; the rules are
 * the reference interpreter's, `@hankweave/hank`): its `when` once before its first codon; each
 * branch that is not done in its own work tree, seeded from the block's base checkpoint, at most
 * `maxConcurrency` at a time, one codon after another with its own conditions, budget gate and
 * failure policy; then the merge back into agentRoot (see `merge-block.ts`). A branch whose
 * failure stops the run stops every branch. A resume runs only the branches that are not done,
 * from their newest checkpoint.
 */
export async function runBlock(host: BlockHost, blockId: string): Promise<BlockOutcome> {
  const { context } = host;
  const block = blockConfig(context, blockId);
  if (!block) {
    throw new RuntimeError(
      'RUNTIME_INTERNAL',
      `The plan names parallel block ${blockId}, which hank.json no longer has; roll back to before it or restore the hank`,
      { details: { blockId } },
    );
  }
  const state = context.store.state;
  const base = blockBase(state, blockId);
  const progress = block.branches.map((branch) => ({
    branch,
    ...branchProgress(state, blockId, branch.id),
  }));
  if (block.when && !progress.some((branch) => branch.started)) {
    const skip = await blockConditionSkip(context, block.when);
    if (!host.driving()) return { kind: 'stopped' };
    if (skip) {
      await skipBlock(host, block, base, skip);
      return { kind: 'next' };
    }
  }
  const pending = progress.filter((branch) => branch.next !== undefined);
  if (pending.length > 0) {
    const run = currentRun(context.store.state);
    if (
      run?.codons.some((record) =>
        pending.some((branch) => branch.next?.codonId === record.codonId),
      )
    ) {
      await host.openContinuation();
    }
    info(
      context,
      `Parallel block ${block.name}: ${pending.map((branch) => branch.branch.id).join(', ')} ${pending.length === 1 ? 'runs' : 'run'} (at most ${block.maxConcurrency ?? block.branches.length} at once)`,
    );
    const ends = await runConcurrently(
      pending.map(
        (branch) => () => runBranch(host, block, branch.branch.id, branch.checkpoint ?? base),
      ),
      block.maxConcurrency ?? pending.length,
    );
    if (ends.some((end) => end.kind === 'halted') || !host.driving()) return { kind: 'stopped' };
    if (ends.some((end) => end.kind === 'idle')) return { kind: 'idle' };
  }
  return mergeBlock(host, block, base);
}

/** Runs `tasks` with at most `limit` at a time, in order; resolves with every result. */
async function runConcurrently<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** One branch: its codons in its work tree, one after another, until it is done or stops. */
async function runBranch(
  host: BlockHost,
  block: ParallelConfig,
  branchId: string,
  checkpoint: string,
): Promise<BranchEnd> {
  if (!host.driving()) return { kind: 'halted' };
  let branch: OpenBranch;
  try {
    branch = await openBranch(host.context, { blockId: block.id, branchId, checkpoint });
  } catch (error) {
    reportError(
      host.context,
      `Branch ${branchId} of parallel block ${block.id} could not start: ${(error as Error).message}`,
      { severity: 'fatal', code: String((error as { code?: unknown }).code ?? 'RUNTIME_INTERNAL') },
    );
    host.halt('error');
    return { kind: 'halted' };
  }
  try {
    let retry: ExecutionCodonEntry | undefined;
    for (;;) {
      if (!host.driving()) return { kind: 'halted' };
      const state = host.context.store.state;
      const entry = retry
        ? (branchEntries(state.executionPlan, block.id, branchId).find(
            (candidate) => candidate.codonId === retry?.codonId,
          ) ?? retry)
        : branchProgress(state, block.id, branchId).next;
      if (!entry) return { kind: 'done' };
      let skip: ConditionSkip | undefined;
      if (!retry) {
        skip = await conditionGate(branch.context, entry);
        if (!host.driving()) return { kind: 'halted' };
        if (!skip) {
          const gate = host.budgetGate(branch.context, entry);
          if (gate.kind === 'stop') {
            const halt = budgetHalt(gate);
            host.halt(halt.reason, halt.running);
            return { kind: 'halted' };
          }
          if (gate.kind === 'loop-ended') continue;
        }
      }
      const decision = await host.execute(branch.context, branch.hint, entry, {
        skipPreCommands: retry !== undefined,
        isAutoRetry: retry !== undefined,
        ...(skip ? { skip } : {}),
      });
      retry = undefined;
      switch (decision.kind) {
        case 'retry':
          await sleep(decision.delayMs, host.stopSignal);
          retry = entry;
          continue;
        case 'shutdown':
          host.halt('codon failure');
          return { kind: 'halted' };
        case 'idle':
          return { kind: 'idle' };
        case 'next':
          continue;
      }
    }
  } finally {
    await branch.close().catch(() => {});
  }
}

/**
 * A block whose `when` does not hold: every codon of every branch's first pass is recorded
 * skipped (branch by branch, in agentRoot's context: nothing runs, nothing is written), then its
 * merge, skipped at the base checkpoint; the run goes on after the block.
 */
async function skipBlock(
  host: BlockHost,
  block: ParallelConfig,
  base: string,
  skip: ConditionSkip,
): Promise<void> {
  const { context } = host;
  info(context, `Parallel block ${block.name} is skipped: ${skip.reason}`);
  for (const branch of block.branches) {
    for (;;) {
      const entry = branchProgress(context.store.state, block.id, branch.id).next;
      if (!entry || (entry.loopContext && entry.loopContext.iteration > 0)) break;
      await host.execute(context, host.hint, entry, {
        skipPreCommands: true,
        isAutoRetry: false,
        skip,
      });
      if (!host.driving()) return;
    }
  }
  const run = currentRun(context.store.state);
  const entry = context.store.state.executionPlan.find(
    (candidate) => candidate.codonId === block.id,
  );
  if (!run || !entry) return;
  recordMerge(context, {
    runId: run.runId,
    entry,
    hint: host.hint,
    ending: { status: 'skipped', checkpointSha: base, condition: skip },
  });
}
