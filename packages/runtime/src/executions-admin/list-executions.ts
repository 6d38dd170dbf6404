import {
  type RegistryProblem,
  type SessionEntry,
  SessionRegistry,
  type SessionStatus,
  sessionLayout,
} from '@hankweave/sessions';
import {
  executionCost,
  loopIterations,
  pipelineIterations,
  sessionAlive,
} from './execution-facts.js';
import { INTERRUPTED_NOTE_PREFIX } from './interrupted-note.js';

/** One session of the registry, with what its files say about it. */
export interface SessionSummary {
  /** The registry key: `pipeline-{name}` or `loop-{name}-{loopId}`. */
  key: string;
  type: 'loop' | 'pipeline';
  status: SessionStatus;
  /** Running sessions only: whether the pid is alive; null when not running or unknowable. */
  alive: boolean | null;
  /** The hank's name (a loop takes its pipeline's). */
  hank: string | null;
  /** The data path the execution ran on (a loop takes its pipeline's). */
  data: string | null;
  startedAt: string;
  /** `completed_at` or `killed_at`; null while running or when the end was never recorded. */
  endedAt: string | null;
  /** To `endedAt`, or to now while running; null when neither is known. */
  durationMs: number | null;
  /** Pipelines: the execution's total cost from its state.json; null if unreadable (and for loops). */
  costUsd: number | null;
  /** Loop: its loop state's `iteration`; pipeline: the sum of its loops' `iterations_run`, null without loops. */
  iterations: number | null;
  maxIterations: number | null;
  executionDir: string | null;
  pid: number | null;
  /** A loop's pipeline key. */
  parent: string | null;
  note: string | null;
  /**
   * A `killed` session that was interrupted (Ctrl-C, SIGTERM, a client's shutdown) rather than
   * killed: its note (or, for a loop, its pipeline's) starts with `interrupted`. `sessions` shows
   * it as interrupted; the registry keeps seed 004's `killed`.
   */
  interrupted: boolean;
  /** The raw registry entry, unknown fields included. */
  entry: SessionEntry;
}

/** Options of {@link listExecutions}. */
export interface ListExecutionsOptions {
  /** The project directory holding `.claude/` (the execution base directory). */
  projectDir: string;
  now?: Date;
}

/**
 * Every session of the project's registry, newest first, with its cost and iterations. Entries
 * the registry could not read are in `problems`, named by key.
 *
 * @throws {SessionsError} SESSIONS_CORRUPT_FILE when `loop-sessions.json` is not JSON.
 */
export async function listExecutions(
  options: ListExecutionsOptions,
): Promise<{ sessions: SessionSummary[]; problems: RegistryProblem[] }> {
  const now = options.now ?? new Date();
  const layout = sessionLayout(options.projectDir);
  const snapshot = await new SessionRegistry(options.projectDir).read();
  const entries = Object.entries(snapshot.sessions).map(([key, entry]) => ({ key, entry }));
  const costs = new Map<string, Promise<number | null>>();
  const costOf = (dir: string | null) => {
    if (!dir) return Promise.resolve(null);
    let cost = costs.get(dir);
    if (!cost) {
      cost = executionCost(dir);
      costs.set(dir, cost);
    }
    return cost;
  };
  const sessions = await Promise.all(
    entries.map(async ({ key, entry }): Promise<SessionSummary> => {
      const parentEntry = entry.parent ? snapshot.sessions[entry.parent] : undefined;
      const executionDir = entry.execution_dir ?? parentEntry?.execution_dir ?? null;
      const endedAt = endOf(entry);
      const children = entries.filter(
        (other) => other.entry.type === 'loop' && other.entry.parent === key,
      );
      return {
        key,
        type: entry.type,
        status: entry.status,
        alive: await sessionAlive(entry, executionDir),
        hank: entry.hank_name ?? parentEntry?.hank_name ?? null,
        data: entry.data_path ?? parentEntry?.data_path ?? null,
        startedAt: entry.started_at,
        endedAt,
        durationMs: durationOf(entry, endedAt, now),
        costUsd: entry.type === 'pipeline' ? await costOf(executionDir) : null,
        iterations:
          entry.type === 'loop'
            ? await loopIterations(layout, key)
            : await pipelineIterations(layout, key, children),
        maxIterations: entry.max_iterations ?? null,
        executionDir,
        pid: entry.pid ?? null,
        parent: entry.parent ?? null,
        note: entry.note ?? null,
        interrupted:
          entry.status === 'killed' &&
          (entry.note ?? (entry.type === 'loop' ? parentEntry?.note : null) ?? '').startsWith(
            INTERRUPTED_NOTE_PREFIX,
          ),
        entry,
      };
    }),
  );
  sessions.sort((a, b) => timeOf(b.startedAt) - timeOf(a.startedAt) || a.key.localeCompare(b.key));
  return { sessions, problems: snapshot.problems };
}

/** When a session ended, as recorded; a running session has not. */
function endOf(entry: SessionEntry): string | null {
  if (entry.status === 'running') return null;
  return entry.completed_at ?? entry.killed_at ?? null;
}

function durationOf(entry: SessionEntry, endedAt: string | null, now: Date): number | null {
  const start = Date.parse(entry.started_at);
  const end = endedAt ? Date.parse(endedAt) : entry.status === 'running' ? now.getTime() : NaN;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

// Unparseable times sort last (oldest), so a hand-edited entry never hides the newest runs.
const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};
