import { EventJournal } from '@hankweave/journal';
import { type ExecutionSummary, PgEventStorage, PgStateMirror } from '@hankweave/postgres';
import type { HankweaveState } from '@hankweave/types';
import type pg from 'pg';

/** What the fleet's database says of one execution besides its state (the workers' meta). */
export interface FleetRow {
  id: string;
  /** Where the worker ran it; on shared storage, the same path here. */
  executionDir?: string;
  worker?: string;
  jobId?: string;
  hankName?: string;
  hankPath?: string;
  dataPath?: string;
  /** When a worker last wrote it (the database's clock). */
  updatedAt: string;
  /** The version of the state the database holds: it changes with every write. */
  version: number;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

function rowOf(summary: ExecutionSummary): FleetRow {
  const { meta } = summary;
  const fields = {
    executionDir: text(meta.executionDir),
    worker: text(meta.worker),
    jobId: text(meta.jobId),
    hankName: text(meta.hankName),
    hankPath: text(meta.hankPath),
    dataPath: text(meta.dataPath),
  };
  return {
    id: summary.executionId,
    updatedAt: summary.updatedAt.toISOString(),
    version: summary.version,
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
  };
}

/**
 * The executions a fleet's workers copied into Postgres (`hankweave worker --postgres`): their
 * states from the mirror table, their journals from the journal tables. Read only.
 */
export class FleetSource {
  readonly #mirror: PgStateMirror;

  constructor(private readonly pool: pg.Pool) {
    this.#mirror = new PgStateMirror({ pool });
  }

  /** Every mirrored execution, newest change first. */
  async rows(): Promise<FleetRow[]> {
    return (await this.#mirror.list({ limit: 100_000 })).map(rowOf);
  }

  /** One execution's state and row, or undefined when the fleet has none of that id. */
  async read(id: string): Promise<{ row: FleetRow; state: HankweaveState } | undefined> {
    const found = await this.#mirror.read(id);
    return found ? { row: rowOf(found), state: found.state } : undefined;
  }

  /** The execution's journal as its workers copied it (opened for reading). */
  async journal(id: string): Promise<EventJournal> {
    const journal = new EventJournal(new PgEventStorage({ pool: this.pool, executionId: id }));
    await journal.initialize();
    return journal;
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
