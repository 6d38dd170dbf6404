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
 * by when they reached their final status instead (see {@link finishOrder}): concurrent branches
 * finish in another order than they start, and the interpreter's executions come in the order
 * its steps end.
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

/** A `codon.completed` event of a case: the record that ended, and the process run it ended in. */
export interface CodonEnd {
  codonId: string;
  session: number;
  /** Its end stopped the run: a failure its policy gave up on, or a plateau loop's error vote. */
  stops?: true;
}

/**
 * The `codon.completed` events of one process run's events, each marked when it stopped the run
 * (what the runtime does right after it, synchronously: no `Retrying codon` notice after a
 * failure that is neither ignored nor an interruption; a loop's error decision).
 */
export function codonEnds(events: readonly HankweaveEvent[], session: number): CodonEnd[] {
  const ends: CodonEnd[] = [];
  events.forEach((event, at) => {
    if (event.type !== 'codon.completed') return;
    const { codonId, success, failureIgnored, failureReason } = event.data;
    const after: HankweaveEvent[] = [];
    for (const next of events.slice(at + 1)) {
      if (next.type === 'codon.completed' || next.type === 'codon.started') break;
      after.push(next);
    }
    const gaveUp =
      !success &&
      failureReason !== undefined &&
      failureIgnored !== true &&
      !isInterruption(failureReason) &&
      !after.some(
        (next) =>
          next.type === 'info' &&
          String(next.data.message).startsWith(`Retrying codon ${codonId} `),
      );
    const errorVote = after.some(
      (next) =>
        next.type === 'error' && (next.data as { code?: string }).code === 'LOOP_DECISION_ERROR',
    );
    ends.push({ codonId, session, ...(gaveUp || errorVote ? { stops: true as const } : {}) });
  });
  return ends;
}

/**
 * The merges a process run's events announce (`Parallel block X merged …`; the generated hanks
 * name a block by its id), in order, each marked when branch order settled a conflict in it (its
 * `Merge of X: …` notices come just before). A merge by a resolver, and a merge a rollback to the
 * resolver records again, announce nothing.
 */
export function mergeNotices(
  events: readonly HankweaveEvent[],
): { blockId: string; ordered: boolean }[] {
  const notices: { blockId: string; ordered: boolean }[] = [];
  let settled = new Set<string>();
  for (const event of events) {
    if (event.type === 'codon.completed' || event.type === 'codon.started') settled = new Set();
    if (event.type !== 'info') continue;
    const message = String(event.data.message);
    const settling = /^Merge of (\S+): /.exec(message)?.[1];
    if (settling !== undefined) settled.add(settling);
    const merged = /^Parallel block (\S+) merged \d+ branches/.exec(message)?.[1];
    if (merged !== undefined) {
      notices.push({ blockId: merged, ordered: settled.has(merged) });
      settled.delete(merged);
    }
  }
  return notices;
}

/**
 * The ends of a case in the order the interpreter's steps would make them: in order, except that
 * in each process run the first end that stopped the run goes after every other end of that run.
 * While branches run at once, a sibling's attempt that was running when a branch's failure stopped
 * the run may still end on its own (completed, a failure it ignores, a skip) just after it; it
 * started before the stop, so it is one of the interpreter's steps before the stopping one. That
 * no attempt began after the stop is checked separately ({@link startedAfterStop}).
 */
export function linearized(ends: readonly CodonEnd[]): CodonEnd[] {
  const out: CodonEnd[] = [];
  const sessions = [...new Set(ends.map((end) => end.session))];
  for (const session of sessions) {
    const own = ends.filter((end) => end.session === session);
    const stop = own.find((end) => end.stops);
    out.push(...own.filter((end) => end !== stop), ...(stop ? [stop] : []));
  }
  return out;
}

/**
 * When each record reached its final status, and in which process run: its `codon.completed`
 * event (every codon's final status emits one as the record ends), matched to the records of its
 * codon id in order (a codon id never has two attempts at once). A record with no such event (a
 * parallel block's merge record) ends right after every record made before it (a merge begins
 * once its block's branches have all ended, and is recorded at once), in the process run
 * `sessionOf` says (that of its run).
 */
export function finishOrder(
  records: readonly CodonExecution[],
  ends: readonly CodonEnd[],
  sessionOf: (record: CodonExecution) => number | undefined = () => undefined,
): Map<CodonExecution, RecordEnd> {
  const byId = new Map<string, RecordEnd[]>();
  ends.forEach((end, at) => {
    const list = byId.get(end.codonId) ?? [];
    list.push({
      at,
      session: end.session,
      ...(end.stops ? { stops: true as const } : {}),
    });
    byId.set(end.codonId, list);
  });
  const order = new Map<CodonExecution, RecordEnd>();
  let latest: RecordEnd = { at: -1, session: 0 };
  for (const record of records) {
    const end = byId.get(record.codonId)?.shift();
    if (end === undefined) {
      latest = { at: latest.at + 1 / 1024, session: sessionOf(record) ?? latest.session };
    } else if (end.at > latest.at) latest = end;
    order.set(record, end ?? latest);
  }
  return order;
}

/** Where a record's end stands among the ends of a case, in which process run, and whether it stopped it. */
export interface RecordEnd {
  at: number;
  session: number;
  stops?: true;
}

/**
 * The records that began after a record's end had stopped their process run, as `codonId`s:
 * none, ever (after a failure that stops the run, no branch starts another attempt). By their
 * `startTime` against the stopping record's `endTime`: an attempt that began in the same
 * millisecond passes (it may have begun before), the rest is compared exactly.
 */
export function startedAfterStop(finished: ReadonlyMap<CodonExecution, RecordEnd>): string[] {
  const records = [...finished.keys()];
  const started: string[] = [];
  for (const stop of records.filter((record) => finished.get(record)?.stops)) {
    const { session } = finished.get(stop) as RecordEnd;
    const stoppedAt = Date.parse((stop as { endTime?: string }).endTime ?? '');
    for (const record of records) {
      if (record === stop || finished.get(record)?.session !== session) continue;
      if (Date.parse(record.startTime) > stoppedAt) started.push(record.codonId);
    }
  }
  return started;
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
