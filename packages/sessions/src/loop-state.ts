import type { Fs } from '@hankweave/durable-io';
import { loopStateSchema } from '@hankweave/types';
import { orderFields } from './internal/entry-order.js';
import { writeJson } from './internal/json-file.js';
import { readStateFile } from './internal/state-file.js';

// The single writer of a loop state is the runtime holding its execution's lock: no file lock.

/** One iteration's entry in a loop state's `history`. */
export interface LoopIterationRecord {
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
  [extra: string]: unknown;
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
  const history = state.history.map(({ decision, ...record }) => ({
    ...record,
    reasoning: record.reasoning ?? null,
    // A null decision (a tool that writes every field) means none was recorded.
    ...(decision ? { decision } : {}),
  }));
  return { ...state, history } as LoopStateFile;
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
      history: state.history.map((record) => orderFields(record, RECORD_ORDER)),
      completed_at: state.completed_at ?? null,
      reason: state.reason ?? null,
    },
    STATE_ORDER,
  );
  await writeJson(file, ordered, fs);
}

/**
 * `state` with `record` as its latest iteration: every record of that iteration or later is
 * dropped first (a redo or a rollback replaces them; they must never count twice), and
 * `iteration` becomes `record.iteration`. Pure: `state` is not changed.
 */
export function withIteration(state: LoopStateFile, record: LoopIterationRecord): LoopStateFile {
  const earlier = state.history.filter((entry) => entry.iteration < record.iteration);
  return { ...state, iteration: record.iteration, history: [...earlier, record] };
}
