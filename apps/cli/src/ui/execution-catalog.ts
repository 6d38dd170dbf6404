import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type EventJournal, openJournalReadOnly } from '@hankweave/journal';
import { executionLayout } from '@hankweave/runtime';
import { type HankweaveState, hankNameFromPath } from '@hankweave/types';
import { liveLock } from '../execution/find-execution.js';
import { journalPath, readExecutionState, readMeta } from '../execution/open-inspection.js';
import type { ExecutionFacts } from './derive/execution-summary.js';
import { EventIndex } from './events/event-index.js';
import { HttpError } from './http/http-error.js';

/** Directory names that can be execution ids: no separators, no dot-only names, URL-safe. */
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
 */
export class ExecutionCatalog {
  readonly #states = new Map<string, { key: string; state: HankweaveState | undefined }>();
  readonly #hankNames = new Map<string, { key: string; name: string }>();
  readonly #journals = new Map<string, Promise<OpenJournal>>();

  constructor(readonly baseDir: string) {}

  /** The ids of every execution, in directory order. */
  async ids(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.baseDir);
    } catch {
      return [];
    }
    return names.filter((name) => ID_PATTERN.test(name) && this.#isExecution(name));
  }

  #isExecution(id: string): boolean {
    const layout = executionLayout(join(this.baseDir, id));
    return existsSync(layout.stateFile) || existsSync(layout.metaFile);
  }

  /** The directory of an execution id; a 404 naming the id for anything that is not one. */
  dirOf(id: string): string {
    if (!ID_PATTERN.test(id) || !this.#isExecution(id))
      throw new HttpError(
        404,
        'EXECUTION_NOT_FOUND',
        `No execution ${JSON.stringify(id.slice(0, 200))} under ${this.baseDir}`,
        'The list at / shows the executions of this base directory.',
      );
    return join(this.baseDir, id);
  }

  /** Everything a summary or detail is made from, read now (state only when it changed). */
  async facts(id: string): Promise<ExecutionFacts> {
    const dir = this.dirOf(id);
    const [state, meta, lock] = await Promise.all([this.#state(dir), readMeta(dir), liveLock(dir)]);
    return {
      id,
      dir,
      hankName: await this.#hankName(meta?.hankPath),
      state,
      meta,
      lock,
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
      const config = JSON.parse(await readFile(hankPath, 'utf8')) as { meta?: { name?: unknown } };
      if (typeof config.meta?.name === 'string' && config.meta.name !== '') name = config.meta.name;
    } catch {
      // A hank that is gone or not JSON keeps its path's name.
    }
    this.#hankNames.set(hankPath, { key, name });
    return name;
  }

  /** The execution's journal and index (opened once); a 404 when it has no journal yet. */
  async journal(id: string): Promise<OpenJournal> {
    const dir = this.dirOf(id);
    let opened = this.#journals.get(id);
    if (!opened) {
      const path = journalPath(dir);
      if (!existsSync(path))
        throw new HttpError(
          404,
          'JOURNAL_NOT_FOUND',
          `The execution ${basename(dir)} has no event journal yet`,
          'Events appear once the hank has started.',
        );
      opened = openJournalReadOnly(path).then((journal) => ({
        journal,
        index: new EventIndex(journal),
      }));
      // A failed open is retried by the next request.
      opened.catch(() => this.#journals.delete(id));
      this.#journals.set(id, opened);
    }
    return opened;
  }

  /** Closes every journal opened. */
  async close(): Promise<void> {
    const journals = [...this.#journals.values()];
    this.#journals.clear();
    await Promise.all(
      journals.map((opened) =>
        opened.then(({ journal }) => journal.close()).catch(() => undefined),
      ),
    );
  }
}
