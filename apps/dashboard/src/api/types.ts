/**
 * The dashboard's HTTP JSON API: the wire types shared by the server (`hankweave ui`, in the CLI)
 * and the web app (`routes.ts` says which route answers which). Every read goes through the
 * packages' public read APIs on the server; the browser never parses state.json or the journal.
 *
 * All routes are under `/api/`, GET unless noted, answered as `application/json`. Errors are
 * `ApiError` with an HTTP status. Times are ISO-8601 strings; durations in ms; costs in USD.
 */
import type {
  CheckpointType,
  CodonStatus,
  HankSource,
  HankweaveEvent,
  RunStatus,
} from '@hankweave/types';
import type { ApiErrorCode, ExecutionStatus } from './constants.js';

/**
 * Any error answer (4xx/5xx). `code` is one of `API_ERROR_CODES` or a package's own code, which
 * passes through (`INSPECTION_NOT_FOUND`, `RUNTIME_NO_CODON_RUNNING`...).
 */
export interface ApiError {
  error: { code: ApiErrorCode | (string & {}); message: string; hint?: string };
}

/** `GET /api/info`: what this server serves. */
export interface ServerInfo {
  version: string;
  /** The managed executions directory listed by `/api/executions`. */
  baseDir: string;
  /** Whether actions (rollback, skip, stop, next) are allowed: `hankweave ui --write`. */
  write: boolean;
  /** Whether a fleet's database is listed too: `hankweave ui --postgres`. */
  fleet: boolean;
}

/**
 * The status of an execution as the list shows it. `interrupted`: the newest run was stopped by
 * Ctrl-C, SIGTERM or a client's shutdown while a codon ran (a stop, not a fault); resuming runs
 * that codon again.
 */
export type { ExecutionStatus } from './constants.js';

/**
 * One row of `GET /api/executions?status=&q=&offset=&limit=` (newest first). Optional, additive:
 * `&sort=started|duration|cost|status|hank&order=asc|desc` sorts the whole filtered list before
 * paging (default `started`/`desc`); a server that ignores them still answers newest first, and the
 * web app re-sorts the page it got.
 */
export interface ExecutionSummary {
  /** URL-safe id: the execution directory's name under the base directory. */
  id: string;
  dir: string;
  hankName: string;
  hankPath?: string;
  /**
   * Optional, additive: where the hank came from (execution-meta.json's `hankSource`): a path, a
   * git URL at a commit (`url`, `ref?`, `commit`, `subdir?`; no credentials), or a bundle and its
   * hash. An execution recorded before it has `{ kind: 'path', path: hankPath }`.
   */
  hankSource?: HankSource;
  dataPath?: string;
  status: ExecutionStatus;
  /** A runtime holds its lock right now (the list's "live" marker). */
  live: boolean;
  startedAt?: string;
  /** Last activity: end of the last run, or now for a live one. */
  endedAt?: string;
  durationMs?: number;
  costUsd: number;
  /** On the execution thread; `interrupted` (when there is one) is not counted in `failed`. */
  codons: {
    completed: number;
    failed: number;
    skipped: number;
    planned: number;
    interrupted?: number;
  };
  runs: number;
  models: string[];
  /** Present when the fleet's database (`hankweave ui --postgres`) has this execution. */
  fleet?: {
    worker?: string;
    jobId?: string;
    /** When a worker last wrote it. */
    updatedAt: string;
    /** Its directory is readable here; without it there are no checkpoints and no actions. */
    files: boolean;
  };
}

export interface ExecutionList {
  executions: ExecutionSummary[];
  total: number;
  offset: number;
  limit: number;
}

/** One node of the run tree: a run, and the runs that continue it (retry, rollback, continue). */
export interface RunNode {
  runId: string;
  status: RunStatus;
  startTime: string;
  endTime?: string;
  reason?: 'fresh' | 'retry' | 'rollback' | 'continue';
  /** A failed run that an interruption ended (Ctrl-C, SIGTERM): a stop, shown as interrupted. */
  interrupted?: boolean;
  /** For a continuation: the codon it continues after (null: from the start) and the checkpoint. */
  from?: { runId: string; afterCodon: string | null; checkpointSha: string };
  codonCount: number;
  costUsd: number;
  children: RunNode[];
}

/**
 * One bar of the timeline: one codon execution record of one run (a retry or a loop iteration is
 * its own bar). `key` is stable and URL-safe: `{runId}~{index in run}`.
 */
export interface CodonBar {
  key: string;
  runId: string;
  codonId: string;
  name: string;
  model?: string;
  status: CodonStatus;
  startTime: string;
  /** Absent while running. */
  endTime?: string;
  costUsd: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  extensions: number;
  /** The nth attempt of this codon id within the execution (1 = first). */
  attempt: number;
  loop?: { loopId: string; iteration: number };
  /**
   * Optional, additive: where the codon sits in a parallel block (issue 36): a codon of branch
   * `branchId`, the block's resolver, or the block's merge (its record's codon id is the block id).
   */
  parallel?: { blockId: string; role: 'branch' | 'resolver' | 'merge'; branchId?: string };
  failure?: { type?: string; message: string };
  /** A failed record that an interruption stopped (Ctrl-C, SIGTERM): shown as interrupted. */
  interrupted?: boolean;
  /** Why a `when` condition skipped the codon (absent for a skip a person asked for). */
  skipReason?: string;
  checkpoints: { type: CheckpointType; sha: string }[];
}

/** `GET /api/executions/:id`: the execution in one read. */
export interface ExecutionDetail {
  summary: ExecutionSummary;
  runTree: RunNode[];
  bars: CodonBar[];
  /** Loops of the plan, for the timeline's grouping. */
  loops: { loopId: string; iterations: number }[];
  /**
   * Optional, additive: the parallel blocks of the plan with their branch ids in plan order, so
   * the timeline draws a block's lanes in branch order.
   */
  blocks?: { blockId: string; branches: string[] }[];
  /** The live runtime, when one holds the lock. */
  live?: { pid: number; runId?: string; port?: number; heartbeat?: string };
}

/** `GET /api/executions/:id/codons/:key`: one codon execution in depth. */
export interface CodonDetail {
  bar: CodonBar;
  /** The prompt as the agent got it (the plan's codon config, rendered as the runtime does). */
  prompt?: string;
  /** Cumulative tokens and cost over time, from `token.usage` events. */
  usage: { t: string; input: number; output: number; costUsd: number }[];
  /** Files the codon changed: the checkpoint diff from its start to its end. */
  files: FileChange[];
  sentinels: { sentinelId: string; t: string; content: unknown; costUsd: number }[];
  /** The count of events of this codon execution (actions and tool results are paged). */
  eventCount: number;
  /**
   * Optional, additive: the two checkpoints `files` was computed between, so the web app links
   * each file to exactly that diff (without it, the app picks the checkpoint before the codon).
   */
  diffRange?: { from: string; to: string };
}

export interface FileChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
}

/**
 * `GET /api/executions/:id/events?after=&limit=&codon=&types=` and `?before=` (tail first).
 * `types` is comma-separated, a trailing `*` matches a prefix (`codon.*`); `limit` 1–1000
 * (default 100). With `before` (empty: the newest events) the page holds the newest matching
 * events before the cursor, oldest first, `nextCursor` leads to the next older page (pass it as
 * `before`) and `hasMore` says whether older ones exist; `total` counts the matching events.
 */
export interface EventPageWire {
  events: HankweaveEvent[];
  /** Opaque: pass back as `after` for the next page (as `before` in tail mode). */
  nextCursor: string;
  hasMore: boolean;
  total: number;
}

/** `GET /api/executions/:id/checkpoints`. */
export interface CheckpointWire {
  sha: string;
  type: CheckpointType;
  codonId?: string;
  runId?: string;
  time: string;
  message: string;
}

/** `GET /api/executions/:id/diff?from=sha&to=sha[&path=]`: a side-by-side diff. */
export interface DiffWire {
  from: string;
  to: string;
  files: (FileChange & {
    /** Text before and after (absent for binary or over the size limit, with `note`). */
    before?: string;
    after?: string;
    note?: string;
  })[];
}

/** `GET /api/executions/:id/costs`. */
export interface CostsWire {
  totalUsd: number;
  byCodon: { codonId: string; name: string; costUsd: number; runs: number }[];
  byModel: { model: string; costUsd: number; inputTokens: number; outputTokens: number }[];
}

/** `GET /api/sessions`: the session registry (seed 004) under the base directory. */
export interface SessionsWire {
  sessions: {
    key: string;
    type: 'pipeline' | 'loop';
    status: string;
    pid?: number;
    startedAt?: string;
    executionId?: string;
    parent?: string;
  }[];
}

/**
 * `POST /api/executions/:id/actions/:action` with `{confirm: true, target?}` (only with `--write`,
 * and only with the header `x-hankweave-action: 1`): `rollback` (target: a checkpoint sha or
 * `last-success`), `skip`, `stop` (force-stop), `next`.
 */
export type { ActionName } from './constants.js';
export interface ActionResult {
  ok: boolean;
  message: string;
}

/**
 * `GET /api/executions/:id/live` is a server-sent event stream: `event: hankweave` lines carry one
 * `HankweaveEvent` each as the runtime publishes it; `event: state` carries a fresh
 * `ExecutionDetail` after each codon transition; `event: end` when the run is over.
 * As served: each message's `data` is the bare payload (the event, the `ExecutionDetail`,
 * `{status}`); the stream opens with a `state`, and after `end` the server closes it (close the
 * EventSource, or it reconnects and gets `state` + `end` again). Optional `?after=<cursor>` (an
 * events page's `nextCursor`) first replays the journal from there, so a page and the stream
 * join without a gap.
 */
export type LiveMessage =
  | { kind: 'event'; event: HankweaveEvent }
  | { kind: 'state'; detail: ExecutionDetail }
  | { kind: 'end'; status: ExecutionStatus };
