import { type CodonExecution, type HankweaveEvent, isInterruption } from '@hankweave/types';

// The order in which a case's codon records ended, read from its journaled events: concurrent
// branches end in another order than they start, and the comparison with the interpreter needs
// the order its steps would make (observe.ts reads the records themselves).

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
