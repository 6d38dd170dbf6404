import type { Execution, FailureKind, LoopEnding, MergeResult, Stop } from '@hankweave/hank';
import { endedByCrash } from '@hankweave/state';
import {
  type CodonExecution,
  type HankweaveEvent,
  type HankweaveState,
  isInterruption,
  isTerminalCodonStatus,
} from '@hankweave/types';
import type { RuntimeExit } from '../../runtime/exit-code.js';
import type { RecordEnd } from './event-order.js';

/** What the comparison with the interpreter looks at in one codon execution. */
export type ObservedExecution = Pick<Execution, 'codonId' | 'status' | 'failure' | 'skippedBy'> & {
  cost: number;
  contextExceeded?: true;
  budgetExceeded?: true;
};

/** The fields of an interpreter execution that the runtime's records can be compared on. */
export function comparable(execution: Execution): ObservedExecution {
  return {
    codonId: execution.codonId,
    status: execution.status,
    ...(execution.failure ? { failure: execution.failure } : {}),
    ...(execution.skippedBy ? { skippedBy: execution.skippedBy } : {}),
    cost: roundCost(execution.cost),
    ...(execution.contextExceeded ? { contextExceeded: true } : {}),
    ...(execution.budgetExceeded ? { budgetExceeded: true } : {}),
  };
}

const roundCost = (dollars: number) => Math.round(dollars * 1e9) / 1e9;

function failureOf(record: CodonExecution & Record<string, unknown>): FailureKind | undefined {
  if (record.status !== 'failed') return undefined;
  const reason = record.failureReason;
  const message = reason.message ?? '';
  if (record.budgetExceeded) return 'budget';
  if (record.contextExceeded === true) return 'context-exceeded';
  if (isInterruption(reason)) return 'interrupted';
  if (/requires continuation from previous codon/.test(message)) return 'no-session';
  return reason.retriable ? 'retriable-error' : 'fatal-error';
}

/** The role of a codon id's plan entry in a parallel block (undefined outside blocks). */
const roleOf = (state: HankweaveState, codonId: string) =>
  state.executionPlan.find((entry) => entry.codonId === codonId)?.parallelContext?.role;

/**
 * The interpreter's id of a runtime codon id. Both name a block's resolver `<blockId>.resolve`;
 * kept so that a plan written before they agreed (the resolver under its hank.json id) reads the
 * same.
 */
export function interpreterId(state: HankweaveState, codonId: string): string {
  const context = state.executionPlan.find((entry) => entry.codonId === codonId)?.parallelContext;
  return context?.role === 'resolver' ? `${context.blockId}.resolve` : codonId;
}

/**
 * True for an attempt of a branch codon that a shutdown it did not cause cut short: a sibling
 * branch's failure or spent budget stopped the run while it ran (the runtime records it failed as
 * interrupted, naming no Ctrl-C). The interpreter records no attempt for it (interpret.ts,
 * "Failure": an attempt that a failure cut short is as if never started), so it is no execution
 * and does not count among its codon's attempts.
 */
export function cutShortBySibling(state: HankweaveState, record: CodonExecution): boolean {
  return (
    record.status === 'failed' &&
    isInterruption(record.failureReason) &&
    !(record.failureReason.message ?? '').startsWith('Interrupted by Ctrl-C') &&
    roleOf(state, record.codonId) === 'branch'
  );
}

/**
 * Every codon record that reached a final status of its own (not an attempt a kill cut short,
 * which crash detection marks failed), oldest first: each run's records in the order the run
 * made them (their start), the runs in the order they began.
 */
export function finishedRecords(state: HankweaveState): CodonExecution[] {
  return [...state.runs]
    .reverse()
    .flatMap((run) =>
      run.codons.filter((codon) => isTerminalCodonStatus(codon.status) && !endedByCrash(codon)),
    );
}

/**
 * Every codon execution that reached a final status of its own, in the order the runs made them
 * (an attempt a kill cut short is not an execution: crash detection marks it failed; nor is an
 * attempt a sibling branch's stop cut short, see {@link cutShortBySibling}; nor a parallel
 * block's merge record, see {@link observeMerges}). `finished`, when given, orders the records
 * by when they reached their final status instead (see `finishOrder` in event-order.ts):
 * concurrent branches finish in another order than they start, and the interpreter's executions
 * come in the order its steps end.
 */
export function observeExecutions(
  state: HankweaveState,
  finished?: ReadonlyMap<CodonExecution, { at: number }>,
): ObservedExecution[] {
  const executions: ObservedExecution[] = [];
  const records = finishedRecords(state).filter(
    (record) => roleOf(state, record.codonId) !== 'merge' && !cutShortBySibling(state, record),
  );
  if (finished) records.sort((a, b) => (finished.get(a)?.at ?? 0) - (finished.get(b)?.at ?? 0));
  for (const codon of records) {
    const record = codon as CodonExecution & Record<string, unknown>;
    const cost =
      record.status === 'completed'
        ? (record.finalCost as number)
        : ((record.partialCost as number | undefined) ?? 0);
    const failure = failureOf(record);
    executions.push({
      codonId: interpreterId(state, record.codonId),
      status: record.status as ObservedExecution['status'],
      ...(failure ? { failure } : {}),
      ...(record.skippedBy === 'condition' ? { skippedBy: 'condition' as const } : {}),
      cost: roundCost(cost),
      ...(record.contextExceeded === true ? { contextExceeded: true } : {}),
      ...(record.budgetExceeded ? { budgetExceeded: true } : {}),
    });
  }
  return executions;
}

/**
 * The runtime codon ids of the executions, in the order they ended, that were a step of their
 * own: not the codons a block's condition skipped with their block (the interpreter skips a
 * block in one go, with no step of its branches).
 */
export function observeSteps(
  state: HankweaveState,
  finished: ReadonlyMap<CodonExecution, { at: number }>,
): string[] {
  return finishedRecords(state)
    .filter(
      (record) =>
        roleOf(state, record.codonId) !== 'merge' &&
        !cutShortBySibling(state, record) &&
        (record as { conditionOf?: string }).conditionOf !== 'block',
    )
    .sort((a, b) => (finished.get(a)?.at ?? 0) - (finished.get(b)?.at ?? 0))
    .map((record) => record.codonId);
}

/** A parallel block's merge as the runtime recorded it (compared with the interpreter's `merges`). */
export interface ObservedMerge {
  blockId: string;
  result: MergeResult;
  session: number;
  /** How many executions (as {@link observeExecutions} counts them) ended before it. */
  afterExecutions: number;
}

/**
 * Every merge of a parallel block, in the order they ended: the records under a block's id
 * (role `merge`), less those a skipped block left (the interpreter records no merge for a block
 * its condition skipped). Failed: `conflict`. Completed: `resolved` when the block's resolver
 * completed (or a person skipped it) since the block's previous merge, `ordered` when it failed
 * (ignored) or when branch order settled the conflict (`onConflict: ordered`), else `clean`. A
 * resolver whose failure stopped the run (or that Ctrl-C interrupted) leaves no merge record, where
 * the interpreter records the merge as `conflict` (a resume merges again): such a resolver counts
 * as a `conflict` merge right after it.
 */
export function observeMerges(
  state: HankweaveState,
  finished: ReadonlyMap<CodonExecution, RecordEnd>,
  notices: readonly { blockId: string; ordered: boolean }[] = [],
): ObservedMerge[] {
  const pending = [...notices];
  /** Blocks whose newest merge a resolver settled, with nothing of the block run since. */
  const settled = new Set<string>();
  const records = finishedRecords(state).sort(
    (a, b) => (finished.get(a)?.at ?? 0) - (finished.get(b)?.at ?? 0),
  );
  const merges: ObservedMerge[] = [];
  const resolverSince = new Map<string, CodonExecution>();
  let executions = 0;
  for (const record of records) {
    const role = roleOf(state, record.codonId);
    const end = finished.get(record);
    if (role !== 'merge') {
      if (!cutShortBySibling(state, record)) executions++;
      const block = state.executionPlan.find((entry) => entry.codonId === record.codonId)
        ?.parallelContext?.blockId;
      if (block !== undefined) settled.delete(block);
      if (role !== 'resolver') continue;
      const blockId = interpreterId(state, record.codonId).replace(/\.resolve$/, '');
      resolverSince.set(blockId, record);
      const interrupted =
        record.status === 'failed' &&
        (record.failureReason.message ?? '').startsWith('Interrupted by Ctrl-C');
      if (end?.stops || interrupted) {
        resolverSince.delete(blockId);
        merges.push({
          blockId,
          result: 'conflict',
          session: end?.session ?? -1,
          afterExecutions: executions,
        });
      }
      continue;
    }
    if (record.status === 'skipped') continue;
    const blockId = record.codonId;
    const resolver = resolverSince.get(blockId);
    resolverSince.delete(blockId);
    // After a rollback to the resolver, the runtime records the merge it settled again (the
    // rollback cut its record off the thread) without merging: the interpreter keeps that merge
    // ("a rollback to a block's resolver keeps the merge it resolved") and records none.
    if (record.status === 'completed' && !resolver && settled.has(blockId)) continue;
    settled.delete(blockId);
    if (resolver) settled.add(blockId);
    const at = pending.findIndex((candidate) => candidate.blockId === blockId);
    const notice =
      record.status === 'completed' && !resolver && at >= 0 ? pending.splice(at, 1)[0] : undefined;
    const result: MergeResult =
      record.status === 'failed'
        ? 'conflict'
        : resolver
          ? resolver.status === 'failed'
            ? 'ordered'
            : 'resolved'
          : notice?.ordered
            ? 'ordered'
            : 'clean';
    merges.push({ blockId, result, session: end?.session ?? -1, afterExecutions: executions });
  }
  return merges;
}

/** How a process run stopped, from its exit. */
export function stopOf(exit: RuntimeExit): Stop | `unexpected: ${string}` {
  switch (exit.reason) {
    case 'all codons completed':
      return 'completed';
    case 'codon failure':
      return 'failed';
    case 'SIGINT':
      return 'interrupted';
    case 'budget exceeded':
      return 'budget-exceeded';
    case 'budget failure':
      return 'budget-failed';
    default:
      return `unexpected: ${exit.reason}`;
  }
}

/** The loops' endings the journal announced (`loop.iteration.completed` with `isFinal`). */
export function observeLoopEndings(events: readonly HankweaveEvent[]): LoopEnding[] {
  return events.flatMap((event) =>
    event.type === 'loop.iteration.completed' && event.data.isFinal
      ? [
          {
            loopId: event.data.loopId,
            iteration: event.data.iteration,
            reason: (event.data.terminationReason ?? 'unknown') as LoopEnding['reason'],
          },
        ]
      : [],
  );
}
