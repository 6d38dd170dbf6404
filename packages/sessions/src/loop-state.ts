import type { Fs } from '@hankweave/durable-io';
import { loopStateSchema } from '@hankweave/types';
import { orderFields } from './internal/entry-order.js';
import { writeJson } from './internal/json-file.js';
import { readStateFile } from './internal/state-file.js';

// The single writer of a loop state is the runtime holding its execution's lock: no file lock.

/** One plateau vote (an iteration's record without its earlier votes). */
export interface LoopVote {
  /** 1-based, as the seed's engine numbers them. */
  iteration: number;
  timestamp: string;
  /** True when the agent said the work has reached a plateau (decision `stop`). */
  plateau: boolean;
  reasoning: string | null;
  /** hankweave's addition: the decision as reported (`missing` when the agent gave none). */
  decision?: 'continue' | 'stop' | 'error' | 'missing';
  /** Where the decision came from. */
  source?: 'message' | 'result.json' | null;
  codon_id?: string | null;
  /** The run of the codon that voted: a vote whose run a rollback cut off never counts. */
  run_id?: string | null;
  [extra: string]: unknown;
}

/** One iteration's entry in a loop state's `history`: its newest vote. */
export interface LoopIterationRecord extends LoopVote {
  /**
   * hankweave's addition: the iteration's earlier votes, oldest first, kept while every vote is
   * tied to a run (`run_id`) so that a rollback cutting the newest one off leaves the one before.
   */
  earlier_votes?: LoopVote[];
}

/** `P/.claude/loop-state-{session}.json`. */
export interface LoopStateFile {
  /** The session name, without the `loop-` prefix of its registry key. */
  session: string;
  type: 'loop';
  loop_type?: string | null;
  started_at: string;
  status: 'running' | 'completed' | 'failed';
  /** The current (or final) iteration. */
  iteration: number;
  history: LoopIterationRecord[];
  completed_at?: string | null;
  /** Why the loop stopped (`plateau`, `iteration_limit`, `error`, the seed's `beads-empty`...). */
  reason?: string | null;
  [extra: string]: unknown;
}

const STATE_ORDER = [
  'session',
  'type',
  'loop_type',
  'started_at',
  'status',
  'iteration',
  'history',
  'completed_at',
  'reason',
];
const RECORD_ORDER = ['iteration', 'timestamp', 'plateau', 'reasoning'];

/**
 * Reads a loop state, tolerating what the seed's tools write (nulls, missing optionals, extra
 * fields, history entries without `reasoning`, which reads as null). Undefined when missing.
 * @throws {SessionsError} SESSIONS_CORRUPT_FILE when it is not JSON or not a loop state.
 */
export async function readLoopState(file: string, fs?: Fs): Promise<LoopStateFile | undefined> {
  const state = await readStateFile(file, loopStateSchema, 'loop state', fs);
  if (state === undefined) return undefined;
  const history = state.history.map(({ earlier_votes, ...record }) => ({
    ...normalizedVote(record),
    ...(earlier_votes?.length ? { earlier_votes: earlier_votes.map(normalizedVote) } : {}),
  }));
  return { ...state, history } as LoopStateFile;
}

function normalizedVote<Vote extends { reasoning?: string | null; decision?: string | null }>({
  decision,
  ...vote
}: Vote) {
  return {
    ...vote,
    reasoning: vote.reasoning ?? null,
    // A null decision (a tool that writes every field) means none was recorded.
    ...(decision ? { decision } : {}),
  };
}

/**
 * Writes a loop state durably and atomically (creating its directory) in the seed's field order;
 * `completed_at` and `reason` are written as null when unset, as in the seed's example.
 * @throws {SessionsError} SESSIONS_IO
 */
export async function writeLoopState(file: string, state: LoopStateFile, fs?: Fs): Promise<void> {
  const ordered = orderFields(
    {
      ...state,
      history: state.history.map(({ earlier_votes, ...record }) =>
        orderFields(
          {
            ...record,
            ...(earlier_votes?.length
              ? { earlier_votes: earlier_votes.map((vote) => orderFields(vote, RECORD_ORDER)) }
              : {}),
          },
          RECORD_ORDER,
        ),
      ),
      completed_at: state.completed_at ?? null,
      reason: state.reason ?? null,
    },
    STATE_ORDER,
  );
  await writeJson(file, ordered, fs);
}

/**
 * `state` with `record` as its latest iteration: every record of a later iteration is dropped
 * first (a rollback replaces them), and `iteration` becomes `record.iteration`. A record of the
 * same iteration is replaced too; when both are tied to a run (`run_id`) it is kept among the new
 * record's `earlier_votes`, because which vote counts is then decided by which runs are still on
 * the execution thread (see {@link votesOf}). Without run ids a vote is never counted twice.
 * Pure: `state` is not changed.
 */
export function withIteration(state: LoopStateFile, record: LoopIterationRecord): LoopStateFile {
  const earlier = state.history.filter((entry) => entry.iteration < record.iteration);
  const replaced = state.history.findLast((entry) => entry.iteration === record.iteration);
  const { earlier_votes: _ignored, ...vote } = record;
  const kept =
    replaced && tiedToRun(replaced) && tiedToRun(record)
      ? [...(replaced.earlier_votes ?? []).filter(tiedToRun), withoutEarlierVotes(replaced)]
      : [];
  const latest: LoopIterationRecord = kept.length ? { ...vote, earlier_votes: kept } : vote;
  return { ...state, iteration: record.iteration, history: [...earlier, latest] };
}

/** Every vote of a history, oldest first: each record's earlier votes, then the record. */
export function votesOf(history: readonly LoopIterationRecord[]): LoopVote[] {
  return history.flatMap((record) => [
    ...(record.earlier_votes ?? []),
    withoutEarlierVotes(record),
  ]);
}

const tiedToRun = (vote: LoopVote) => typeof vote.run_id === 'string';

function withoutEarlierVotes({ earlier_votes: _ignored, ...vote }: LoopIterationRecord): LoopVote {
  return vote;
}
