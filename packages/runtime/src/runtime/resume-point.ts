import { executionThread } from '@hankweave/state';
import { type CodonExecution, hankLoops, type LoopContext } from '@hankweave/types';
import { cutShort } from '../codon/retry-series.js';
import { blockBase } from '../parallel/block-lanes.js';
import { entryCodon } from '../plan/planner.js';
import { threadHistory } from '../session-tracking/thread-history.js';
import type { RuntimeContext } from './runtime-context.js';

/** Where a new run continues: after a codon, from the checkpoint its ending took. */
export interface ResumePoint {
  runId: string;
  codonId: string;
  sha: string;
  checkpointType: 'completed' | 'skipped' | 'error';
}

/**
 * The newest codon execution on the thread that the plan moved past: one that completed, was
 * skipped, or failed under `onFailure: "ignore"` (not one a shutdown or a crash cut short). A plateau loop's
 * iteration whose vote was an error is abandoned: none of its codons count, so the iteration runs
 * again. Undefined when nothing on the thread qualifies (the run starts from the beginning).
 *
 * Every start continues here (reference §5.3 rolls back to the last success; this is the
 * interpreter's rule, `@hankweave/hank`): so a finished execution runs nothing more, a skipped or
 * ignored codon never runs twice, and a codon that failed runs again.
 */
export function resumePoint(context: RuntimeContext): ResumePoint | undefined {
  const state = context.store.state;
  const entries = new Map(state.executionPlan.map((entry) => [entry.codonId, entry]));
  const abandoned = abandonedIterations(context);
  const thread = executionThread(state);
  for (const { codon: record, runId } of thread.codons) {
    const entry = entries.get(record.codonId);
    const loop = entry?.loopContext ?? record.loopContext;
    if (loop && abandoned.has(iterationKey(loop))) continue;
    const found = checkpointOf(record, entry ? entryCodon(entry).onFailure : undefined);
    if (!found) continue;
    // A branch's checkpoint lives in its work tree: until the block merges, agentRoot holds the
    // block's base, and the branch's work tree is restored from the thread when the block runs.
    // It continues the thread's own run: the record's run may hold records the thread undid
    // (a rollback into a branch keeps only the sibling branches' later records).
    if (entry?.parallelContext?.role === 'branch') {
      return {
        runId: thread.runId ?? runId,
        codonId: record.codonId,
        sha: blockBase(state, entry.parallelContext.blockId),
        checkpointType: found.checkpointType,
      };
    }
    return { runId, codonId: record.codonId, ...found };
  }
  return undefined;
}

function checkpointOf(
  record: CodonExecution,
  onFailure: string | undefined,
): Pick<ResumePoint, 'sha' | 'checkpointType'> | undefined {
  switch (record.status) {
    case 'completed':
      return record.completionCheckpoint
        ? { sha: record.completionCheckpoint, checkpointType: 'completed' }
        : undefined;
    case 'skipped':
      return record.skipCheckpoint
        ? { sha: record.skipCheckpoint, checkpointType: 'skipped' }
        : undefined;
    case 'failed':
      return onFailure === 'ignore' && !cutShort(record) && record.errorCheckpoint
        ? { sha: record.errorCheckpoint, checkpointType: 'error' }
        : undefined;
    default:
      return undefined;
  }
}

const iterationKey = (loop: Pick<LoopContext, 'loopId' | 'iteration'>) =>
  `${loop.loopId}\n${loop.iteration}`;

/**
 * Iterations of plateau loops that ended on an error verdict: the iteration's last codon is on the
 * thread, ended so that the loop took its verdict after it (not ended by its budget first), and
 * the iteration's newest vote on the thread is an error. An error vote whose iteration a rollback
 * cut short of its last codon decided nothing yet: that iteration goes on from where the thread
 * stops (the interpreter's rule).
 */
function abandonedIterations(context: RuntimeContext): Set<string> {
  const abandoned = new Set<string>();
  const thread = executionThread(context.store.state).codons;
  for (const item of hankLoops(context.config)) {
    if (item.terminateOn.type !== 'plateau') continue;
    const newest = new Map<number, string | undefined>();
    for (const record of threadHistory(context, item.id)) {
      newest.set(record.iteration, record.decision);
    }
    const lastIndex = item.codons.length - 1;
    const onFailure = item.codons[lastIndex]?.onFailure;
    for (const [iteration, decision] of newest) {
      if (decision !== 'error') continue;
      const key = iterationKey({ loopId: item.id, iteration: iteration - 1 });
      const decided = thread.some(
        ({ codon }) =>
          codon.loopContext !== undefined &&
          iterationKey(codon.loopContext) === key &&
          codon.loopContext.codonIndexInLoop === lastIndex &&
          endedForThePlan(codon, onFailure) &&
          !codon.budgetExceeded,
      );
      if (decided) abandoned.add(key);
    }
  }
  return abandoned;
}

/** Whether the plan decided after this execution: it completed, was skipped, or failed ignored. */
function endedForThePlan(record: CodonExecution, onFailure: string | undefined): boolean {
  if (record.status === 'completed' || record.status === 'skipped') return true;
  return record.status === 'failed' && onFailure === 'ignore' && !cutShort(record);
}
