import { currentRun, latestRun, totalCost } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import type { Pool } from 'pg';
import { PostgresError } from '../errors.js';
import { ensureSchema } from '../internal/schema.js';
import { sqlState } from '../internal/transaction.js';

/** The executions table (schema component `mirror`, version 1): one row per execution. */
const MIRROR_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS hankweave_executions (
     execution_id text PRIMARY KEY,
     version bigint NOT NULL,
     status text NOT NULL,
     current_run_id text,
     total_cost double precision NOT NULL,
     run_count integer NOT NULL,
     state_json text NOT NULL,
     state jsonb,
     meta jsonb NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now())`,
  'CREATE INDEX IF NOT EXISTS hankweave_executions_updated ON hankweave_executions (updated_at DESC)',
];

// The monotonic guard is the WHERE of the upsert: a row is replaced only by a higher version, in
// one statement, so two writers racing cannot let the older one win.
const UPSERT = `INSERT INTO hankweave_executions AS e (execution_id, version, status, current_run_id,
    total_cost, run_count, state_json, state, meta, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7::text, CASE WHEN $8 THEN $7::text::jsonb END, $9::jsonb, now())
  ON CONFLICT (execution_id) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status,
    current_run_id = EXCLUDED.current_run_id, total_cost = EXCLUDED.total_cost,
    run_count = EXCLUDED.run_count, state_json = EXCLUDED.state_json, state = EXCLUDED.state,
    meta = EXCLUDED.meta, updated_at = now()
  WHERE e.version < EXCLUDED.version
  RETURNING version::text AS version`;

const SUMMARY = `execution_id AS "executionId", version::text AS version, status,
  current_run_id AS "currentRunId", total_cost AS "totalCost", run_count AS "runCount", meta,
  updated_at AS "updatedAt"`;

// As in the journal: jsonb cannot hold U+0000 or lone surrogates; `state_json` stays exact.
const NOT_JSONB = /\\u(?:0000|d[89a-f])/i;

/** What the fleet view shows of one execution. */
export interface ExecutionSummary {
  executionId: string;
  /** The version of the state held (see {@link MirrorMeta.version}). */
  version: number;
  /**
   * `meta.status`, else the status of the current run, or of the newest one when none is current
   * (`running`, `completed`, `failed`, `crashed`), else `new`.
   */
  status: string;
  /** The state's `currentRunId` (null between runs). */
  currentRunId: string | null;
  /** Cost of every run (`totalCost` of `@hankweave/state`). */
  totalCost: number;
  runCount: number;
  /** The caller's extra fields (worker, host, hank name ...). */
  meta: Record<string, unknown>;
  /** When the row last changed, by the database's clock. */
  updatedAt: Date;
}

/** One mirrored execution with its whole state. */
export interface MirroredExecution extends ExecutionSummary {
  state: HankweaveState;
}

/** Fields of {@link PgStateMirror.upsert} besides the state. */
export interface MirrorMeta {
  /**
   * Orders the writes of one execution: a write whose version is not higher than the stored one
   * is ignored. Default: the writer's clock in ms, raised to stay strictly increasing within this
   * mirror instance (so a late write from a slow worker loses to a newer one).
   */
  version?: number;
  /** Overrides the status derived from the state. */
  status?: string;
  [field: string]: unknown;
}

/** Options of {@link PgStateMirror.list}. */
export interface MirrorListOptions {
  /** Only executions with this status. */
  status?: string;
  /** At most this many, most recently updated first. Default 1000. */
  limit?: number;
}

/**
 * A fleet view of execution states in Postgres: each worker upserts the state of its execution
 * (after its store's saves), a dashboard lists and reads them all. A copy for reading, not the
 * store: the durable state stays where `StateStore` writes it (files, or `createPgFs`).
 */
export class PgStateMirror {
  readonly #pool: Pool;
  #lastVersion = 0;

  constructor(options: { pool: Pool }) {
    this.#pool = options.pool;
  }

  /**
   * Stores `state` as the state of `executionId` unless a write with a higher or equal version is
   * already there. Resolves with whether it was applied and the version now stored.
   * @throws {PostgresError} POSTGRES_BAD_ARGUMENT for an empty id, a state without `runs`, or a
   *   version that is not a non-negative safe integer; POSTGRES_QUERY_FAILED when the database
   *   fails.
   */
  async upsert(
    executionId: string,
    state: HankweaveState,
    meta: MirrorMeta = {},
  ): Promise<{ applied: boolean; version: number }> {
    checkId(executionId);
    if (!Array.isArray((state as { runs?: unknown } | null)?.runs)) {
      throw new PostgresError('POSTGRES_BAD_ARGUMENT', 'state must be a hankweave state', {
        details: { executionId },
      });
    }
    const { version: given, status: givenStatus, ...extra } = meta;
    if (given !== undefined && !(Number.isSafeInteger(given) && given >= 0)) {
      throw new PostgresError('POSTGRES_BAD_ARGUMENT', 'version must be a safe integer ≥ 0', {
        details: { executionId, version: String(given) },
      });
    }
    const version = given ?? Math.max(Date.now(), this.#lastVersion + 1);
    this.#lastVersion = Math.max(this.#lastVersion, version);
    // A finished run is no longer current: the newest run then tells how the execution ended.
    const run = currentRun(state) ?? latestRun(state);
    const status = typeof givenStatus === 'string' ? givenStatus : (run?.status ?? 'new');
    const json = JSON.stringify(state);
    return this.#run('upsert', executionId, async () => {
      await ensureSchema(this.#pool, 'mirror', MIRROR_DDL);
      const values = [
        executionId,
        version,
        status,
        state.currentRunId ?? null,
        totalCost(state),
        state.runs.length,
        json,
        !NOT_JSONB.test(json),
        JSON.stringify(extra),
      ];
      const applied = await this.#pool.query<{ version: string }>(UPSERT, values);
      if (applied.rows.length > 0) return { applied: true, version };
      const kept = await this.#pool.query<{ version: string }>(
        'SELECT version::text AS version FROM hankweave_executions WHERE execution_id = $1',
        [executionId],
      );
      return { applied: false, version: Number(kept.rows[0]?.version ?? version) };
    });
  }

  /**
   * The mirrored state of one execution; undefined when it was never upserted.
   * @throws {PostgresError} POSTGRES_QUERY_FAILED when the database fails.
   */
  async read(executionId: string): Promise<MirroredExecution | undefined> {
    checkId(executionId);
    return this.#run('read', executionId, async () => {
      await ensureSchema(this.#pool, 'mirror', MIRROR_DDL);
      const found = await this.#pool.query<ExecutionSummary & { stateJson: string }>(
        `SELECT ${SUMMARY}, state_json AS "stateJson" FROM hankweave_executions
          WHERE execution_id = $1`,
        [executionId],
      );
      const row = found.rows[0];
      if (row === undefined) return undefined;
      const { stateJson, ...summary } = row;
      return { ...summary, version: Number(summary.version), state: JSON.parse(stateJson) };
    });
  }

  /**
   * Summaries of the mirrored executions (no states), most recently updated first.
   * @throws {PostgresError} POSTGRES_BAD_ARGUMENT for a bad limit; POSTGRES_QUERY_FAILED when the
   *   database fails.
   */
  async list(options: MirrorListOptions = {}): Promise<ExecutionSummary[]> {
    const limit = options.limit ?? 1000;
    if (!(Number.isSafeInteger(limit) && limit >= 1)) {
      throw new PostgresError('POSTGRES_BAD_ARGUMENT', 'limit must be an integer ≥ 1', {
        details: { limit },
      });
    }
    return this.#run('list', null, async () => {
      await ensureSchema(this.#pool, 'mirror', MIRROR_DDL);
      const found = await this.#pool.query<ExecutionSummary>(
        `SELECT ${SUMMARY} FROM hankweave_executions
          WHERE $1::text IS NULL OR status = $1
          ORDER BY updated_at DESC, execution_id LIMIT $2`,
        [options.status ?? null, limit],
      );
      return found.rows.map((row) => ({ ...row, version: Number(row.version) }));
    });
  }

  async #run<T>(what: string, executionId: string | null, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (PostgresError.is(error)) throw error;
      throw new PostgresError(
        'POSTGRES_QUERY_FAILED',
        `State mirror ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error, details: { executionId, sqlState: sqlState(error) ?? null } },
      );
    }
  }
}

function checkId(executionId: string): void {
  if (typeof executionId !== 'string' || executionId.length === 0) {
    throw new PostgresError('POSTGRES_BAD_ARGUMENT', 'executionId must be a non-empty string', {
      details: { executionId: String(executionId) },
    });
  }
}
