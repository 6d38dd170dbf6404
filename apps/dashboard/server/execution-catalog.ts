import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readRegularTextFile } from '@hankweave/durable-io';
import {
  journalPath,
  liveLock,
  readExecutionState,
  readMeta,
  regularFilesFs,
} from '@hankweave/inspection';
import { type EventJournal, openJournalReadOnly } from '@hankweave/journal';
import { executionLayout } from '@hankweave/runtime/layout';
import { type HankweaveState, hankNameFromPath } from '@hankweave/types';
import type { ExecutionFacts, FleetFacts } from './derive/execution-summary.js';
import { EventIndex } from './events/event-index.js';
import type { FleetRow, FleetSource } from './fleet-source.js';
import { HttpError } from './http/http-error.js';

/** Directory names that can be execution ids: no separators, no dot-only names, URL-safe. */
/** hank.json is read for its name only: a larger file is not read. */
const MAX_HANK_BYTES = 10 * 1024 * 1024;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A file's identity for caching: changes whenever the file is replaced or rewritten. */
async function fingerprint(path: string): Promise<string | undefined> {
  try {
    const stats = await stat(path);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The journal of one execution, opened read-only once, with its lazily built index. */
export interface OpenJournal {
  journal: EventJournal;
  index: EventIndex;
}

/**
 * The executions of a base directory: every directory holding `.hankweave/state.json` or
 * `execution-meta.json`. Reads go through the packages (`readState`, `readExecutionMeta`,
 * `readRuntimeLock` via `liveLock`); a state is parsed again only when its file changed, so
 * listing a thousand executions re-reads only what moved. The lock is read on every call
 * (liveness is a matter of time).
 *
 * With a {@link FleetSource} (`hankweave ui --postgres`), the executions a fleet's workers
 * mirrored are listed too: read from their directory when it is readable here (shared storage),
 * else from the database (state and journal; no checkpoints, no actions).
 */
export class ExecutionCatalog {
  readonly #states = new Map<string, { key: string; state: HankweaveState | undefined }>();
  readonly #hankNames = new Map<string, { key: string; name: string }>();
  readonly #journals = new Map<string, Promise<OpenJournal>>();
  /** The fleet's rows as the last listing read them. */
  #fleetRows = new Map<string, FleetRow>();
  /** Fleet states read from the database, by id, with the version they are. */
  readonly #fleetStates = new Map<string, { version: number; state: HankweaveState }>();

  constructor(
    readonly baseDir: string,
    readonly fleet?: FleetSource,
  ) {}

  /** The ids of every execution: the base directory's in directory order, then the fleet's. */
  async ids(): Promise<string[]> {
    let names: string[] = [];
    try {
      names = await readdir(this.baseDir);
    } catch {
      // No base directory: nothing of it to list.
    }
    const local = names.filter(
      (name) => ID_PATTERN.test(name) && isExecutionDir(join(this.baseDir, name)),
    );
    if (!this.fleet) return local;
    const rows = await this.fleet.rows().catch((error: unknown) => {
      throw new HttpError(
        503,
        'FLEET_UNREACHABLE',
        `The fleet database does not answer: ${error instanceof Error ? error.message : String(error)}`,
        'Check that its Postgres is up; the list comes back once it answers (or restart hankweave ui without --postgres).',
      );
    });
    this.#fleetRows = new Map(rows.map((row) => [row.id, row]));
    const seen = new Set(local);
    return [
      ...local,
      ...rows.map((row) => row.id).filter((id) => ID_PATTERN.test(id) && !seen.has(id)),
    ];
  }

  /** The execution's directory here: under the base directory, else where the fleet ran it. */
  #localDir(id: string): string | undefined {
    if (!ID_PATTERN.test(id)) return undefined;
    const underBase = join(this.baseDir, id);
    if (isExecutionDir(underBase)) return underBase;
    const elsewhere = this.#fleetRows.get(id)?.executionDir;
    return elsewhere && isExecutionDir(elsewhere) ? elsewhere : undefined;
  }

  /**
   * The directory of an execution id; a 404 naming the id for anything that is not one, and for
   * a fleet execution whose files are not on this machine.
   */
  dirOf(id: string): string {
    const dir = this.#localDir(id);
    if (dir) return dir;
    const row = this.#fleetRows.get(id);
    if (row) throw filesElsewhere(row);
    throw new HttpError(
      404,
      'EXECUTION_NOT_FOUND',
      `No execution ${JSON.stringify(id.slice(0, 200))} under ${this.baseDir}${this.fleet ? ' or in the fleet database' : ''}`,
      'The list at / shows the executions of this base directory.',
    );
  }

  /**
   * Everything a summary or detail is made from, read now (state only when it changed).
   * `listed`: the caller has just listed the ids, so a fleet state whose version has not moved
   * since it was last read is reused; otherwise a fleet state is read again.
   */
  async facts(id: string, options: { listed?: boolean } = {}): Promise<ExecutionFacts> {
    if (this.fleet && ID_PATTERN.test(id) && !this.#fleetRows.has(id) && !this.#localDir(id)) {
      // A deep link before any listing: ask the database for this one.
      const found = await this.fleet.read(id);
      if (found) this.#fleetRows.set(id, found.row);
    }
    const row = this.#fleetRows.get(id);
    const dir = this.#localDir(id);
    if (!dir && row && this.fleet) return this.#fleetFacts(row, options.listed === true);
    const local = this.dirOf(id);
    const [state, meta, lock] = await Promise.all([
      this.#state(local),
      readMeta(local),
      liveLock(local),
    ]);
    return {
      id,
      dir: local,
      hankName: await this.#hankName(meta?.hankPath),
      state,
      meta,
      lock,
      ...(row ? { fleet: fleetFacts(row, true) } : {}),
    };
  }

  /**
   * A fleet execution whose files are elsewhere: its state as the workers last wrote it. A listing
   * reads only the states whose version moved since they were last read.
   */
  async #fleetFacts(row: FleetRow, listed: boolean): Promise<ExecutionFacts> {
    let current = row;
    let cached = this.#fleetStates.get(row.id);
    if (!listed || cached?.version !== row.version) {
      const found = await this.fleet?.read(row.id);
      if (found) {
        current = found.row;
        this.#fleetRows.set(row.id, found.row);
        cached = { version: found.row.version, state: found.state };
        this.#fleetStates.set(row.id, cached);
      }
    }
    return {
      id: row.id,
      dir: current.executionDir ?? '',
      hankName: current.hankName ?? hankNameFromPath(current.hankPath),
      state: cached?.state,
      meta: undefined,
      lock: undefined,
      fleet: fleetFacts(current, false),
    };
  }

  async #state(dir: string): Promise<HankweaveState | undefined> {
    const layout = executionLayout(dir);
    const key = `${await fingerprint(layout.stateFile)}|${await fingerprint(`${layout.stateFile}.bak`)}`;
    const cached = this.#states.get(dir);
    if (cached?.key === key) return cached.state;
    const state =
      existsSync(layout.stateFile) || existsSync(`${layout.stateFile}.bak`)
        ? await readExecutionState(dir).catch(() => undefined)
        : undefined;
    this.#states.set(dir, { key, state });
    return state;
  }

  /** The hank's `meta.name` (read leniently: the file may be gone or edited), else its path's. */
  async #hankName(hankPath: string | undefined): Promise<string> {
    if (!hankPath) return hankNameFromPath();
    const key = (await fingerprint(hankPath)) ?? 'missing';
    const cached = this.#hankNames.get(hankPath);
    if (cached?.key === key) return cached.name;
    let name = hankNameFromPath(hankPath, dirname(hankPath));
    try {
      // Only a regular file, and not a huge one: the path comes from the execution's metadata,
      // which anything could have changed; a FIFO there must not hang the dashboard.
      const text = await readRegularTextFile(hankPath, { maxBytes: MAX_HANK_BYTES });
      const config = JSON.parse(text) as { meta?: { name?: unknown } };
      if (typeof config.meta?.name === 'string' && config.meta.name !== '') name = config.meta.name;
    } catch {
      // A hank that is gone or not JSON keeps its path's name.
    }
    this.#hankNames.set(hankPath, { key, name });
    return name;
  }

  /** The execution's journal and index (opened once); a 404 when it has no journal yet. */
  async journal(id: string): Promise<OpenJournal> {
    let opened = this.#journals.get(id);
    const dir = this.#localDir(id);
    if (!opened && !dir && this.fleet && this.#fleetRows.has(id)) {
      opened = this.fleet
        .journal(id)
        .then((journal) => ({ journal, index: new EventIndex(journal) }));
      opened.catch(() => this.#journals.delete(id));
      this.#journals.set(id, opened);
    }
    if (!opened) {
      const path = journalPath(this.dirOf(id));
      if (!existsSync(path))
        throw new HttpError(
          404,
          'JOURNAL_NOT_FOUND',
          `The execution ${id} has no event journal yet`,
          'Events appear once the hank has started.',
        );
      opened = openJournalReadOnly(path, { fs: regularFilesFs }).then((journal) => ({
        journal,
        index: new EventIndex(journal),
      }));
      // A failed open is retried by the next request.
      opened.catch(() => this.#journals.delete(id));
      this.#journals.set(id, opened);
    }
    return opened;
  }

  /** Closes every journal opened, and the fleet's connections. */
  async close(): Promise<void> {
    const journals = [...this.#journals.values()];
    this.#journals.clear();
    await Promise.all(
      journals.map((opened) =>
        opened.then(({ journal }) => journal.close()).catch(() => undefined),
      ),
    );
    await this.fleet?.close();
  }
}

/** Whether a directory holds an execution (its state or its meta). */
function isExecutionDir(dir: string): boolean {
  const layout = executionLayout(dir);
  return existsSync(layout.stateFile) || existsSync(layout.metaFile);
}

function fleetFacts(row: FleetRow, files: boolean): FleetFacts {
  return {
    ...(row.worker ? { worker: row.worker } : {}),
    ...(row.jobId ? { jobId: row.jobId } : {}),
    updatedAt: row.updatedAt,
    files,
    ...(row.hankPath ? { hankPath: row.hankPath } : {}),
    ...(row.dataPath ? { dataPath: row.dataPath } : {}),
  };
}

/** The execution's directory, for what reads its files; a fleet execution elsewhere is a 404. */
export function filesOf(facts: ExecutionFacts): string {
  if (facts.fleet && !facts.fleet.files)
    throw filesElsewhere({
      id: facts.id,
      ...(facts.fleet.worker ? { worker: facts.fleet.worker } : {}),
      ...(facts.dir ? { executionDir: facts.dir } : {}),
    });
  return facts.dir;
}

/** The answer for what needs a fleet execution's files on a machine that does not have them. */
export function filesElsewhere(row: {
  id: string;
  worker?: string;
  executionDir?: string;
}): HttpError {
  return new HttpError(
    404,
    'EXECUTION_FILES_ELSEWHERE',
    `The execution ${row.id} ran on ${row.worker ?? 'a worker'}${row.executionDir ? ` in ${row.executionDir}` : ''}, which is not readable here: its checkpoints and actions need its files`,
    "Run hankweave ui --postgres on a machine that mounts the fleet's shared execution storage at the same path.",
  );
}
