import { type Fs, nodeFs } from '@hankweave/durable-io';
import { loopSessionRegistrySchema } from '@hankweave/types';
import { SessionsError } from './errors.js';
import { definedFields, orderRegistryEntry } from './internal/entry-order.js';
import { corruptFileError, isJsonObject, readJson } from './internal/json-file.js';
import { type LockedJsonFile, lockedJsonUpdate } from './internal/locked-json-update.js';
import { sessionLayout } from './layout.js';
import { isoSeconds } from './timestamps.js';

/** A session's status in the registry (seed 004's four values). */
export type SessionStatus = 'running' | 'completed' | 'killed' | 'unknown_termination';

/** One entry of `loop-sessions.json`: the seed's fields, then hankweave's optional additions. */
export interface SessionEntry {
  type: 'loop' | 'pipeline';
  loop_type?: string | null;
  pipeline_file?: string | null;
  started_at: string;
  project_path: string;
  max_iterations?: number | null;
  status: SessionStatus;
  killed_at?: string | null;
  completed_at?: string | null;
  note?: string | null;
  /** The process running the session. */
  pid?: number | null;
  /** The host `pid` lives on: a pid says nothing about another machine. */
  hostname?: string | null;
  execution_dir?: string | null;
  data_path?: string | null;
  hank_name?: string | null;
  /** A loop's pipeline session key (`pipeline-{session}`). */
  parent?: string | null;
  agent_config_dir?: string | null;
  /** Set by `patch` and `setStatus`. */
  updated_at?: string | null;
  /** Unknown fields are kept on every rewrite. */
  [extra: string]: unknown;
}

/** An entry of the registry file that does not fit the schema (kept in the file, not returned). */
export interface RegistryProblem {
  key?: string;
  message: string;
}

/** What {@link SessionRegistry.read} returns. */
export interface RegistrySnapshot {
  sessions: Record<string, SessionEntry>;
  problems: RegistryProblem[];
}

/** Options of {@link SessionRegistry} (and of `appendCompletion`). */
export interface SessionRegistryOptions {
  /** The file system for reads and writes (default the real one). The lock is always on disk. */
  fs?: Fs;
  /** A lock not refreshed for this long is stale and taken over (default 10 000; at least 2 000). */
  lockStaleMs?: number;
  /** Give up acquiring the lock after this long: SESSIONS_LOCK_TIMEOUT (default 30 000). */
  lockTimeoutMs?: number;
  /** The time stamped into `completed_at`, `killed_at` and `updated_at` (default now). */
  clock?: () => Date;
  /** Told about a corrupt file moved aside. */
  onWarning?: (message: string) => void;
}

export const DEFAULT_LOCK_STALE_MS = 10_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

const entrySchema = loopSessionRegistrySchema.shape.sessions.valueType;

/**
 * The session registry `P/.claude/loop-sessions.json`. Reads are lock-free (every write is an
 * atomic rename); every change is a read-modify-write under a cross-process lock, so concurrent
 * runtimes and CLIs never lose each other's entries.
 */
export class SessionRegistry {
  /** The registry file. */
  readonly file: string;
  readonly #fs: Fs;
  readonly #options: SessionRegistryOptions;
  readonly #target: LockedJsonFile;

  constructor(projectDir: string, options: SessionRegistryOptions = {}) {
    const layout = sessionLayout(projectDir);
    this.file = layout.registryFile;
    this.#fs = options.fs ?? nodeFs;
    this.#options = options;
    this.#target = {
      file: this.file,
      lockFile: layout.registryLockFile,
      fs: this.#fs,
      staleMs: options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
      timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      empty: () => ({ sessions: {} }),
      isUsable: (document) => registrySessions(document) !== undefined,
      description: 'session registry',
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    };
  }

  /**
   * A snapshot without the lock. A missing file or directory is an empty registry; entries that
   * fail the (tolerant) schema are reported in `problems` by key, not returned in `sessions`.
   * @throws {SessionsError} SESSIONS_CORRUPT_FILE when the file is not a JSON registry.
   */
  async read(): Promise<RegistrySnapshot> {
    const read = await readJson(this.file, this.#fs);
    if (read.kind === 'missing') return { sessions: {}, problems: [] };
    if (read.kind === 'unparseable') {
      throw corruptFileError(this.file, 'is not valid JSON', read.error);
    }
    const raw = registrySessions(read.value);
    if (raw === undefined) {
      throw corruptFileError(this.file, 'is not an object of the form {"sessions": {...}}');
    }
    const snapshot: RegistrySnapshot = { sessions: {}, problems: [] };
    for (const [key, value] of Object.entries(raw)) {
      if (key === '__proto__') {
        snapshot.problems.push({ key, message: '"__proto__" cannot be a session key' });
        continue;
      }
      const parsed = entrySchema.safeParse(value);
      if (parsed.success) snapshot.sessions[key] = parsed.data as SessionEntry;
      else {
        const issues = parsed.error.issues.map(
          (issue) => `${issue.path.join('.') || 'the entry'}: ${issue.message}`,
        );
        snapshot.problems.push({ key, message: `${key}: ${issues.join('; ')}` });
      }
    }
    return snapshot;
  }

  /**
   * Read-modify-write under the registry's lock. `mutate` gets the raw sessions map (entries
   * that fail the schema included, so they survive) and changes it in place; the result is
   * written durably and atomically before the lock is released (nothing is written when the
   * map is unchanged). An unparseable registry is moved aside (`onWarning` says where) and the
   * update starts from empty. Creates `P/.claude` when missing. Returns what `mutate` returns.
   *
   * @throws {SessionsError} SESSIONS_LOCK_TIMEOUT; SESSIONS_IO when a file cannot be written.
   */
  async update<T>(mutate: (sessions: Record<string, SessionEntry>) => T | Promise<T>): Promise<T> {
    return lockedJsonUpdate(this.#target, async (document) => {
      const sessions: Record<string, SessionEntry> = {};
      for (const [key, value] of Object.entries(registrySessions(document) ?? {})) {
        // JSON.parse makes `__proto__` an own key; copying it would set a prototype instead.
        if (key !== '__proto__') sessions[key] = value as SessionEntry;
      }
      const result = await mutate(sessions);
      document.sessions = sessions;
      return result;
    });
  }

  /** Adds or replaces the entry `key` (killed_at, completed_at and note written as null when unset). */
  async register(key: string, entry: SessionEntry): Promise<void> {
    assertKey(key);
    const ordered = orderRegistryEntry(definedFields(entry) as SessionEntry);
    await this.update((sessions) => {
      sessions[key] = ordered;
    });
  }

  /**
   * Merges `fields` into the entry `key` (undefined values are ignored, null clears) and stamps
   * `updated_at`. Returns the new entry, or undefined when there is no such key (nothing written).
   */
  async patch(key: string, fields: Partial<SessionEntry>): Promise<SessionEntry | undefined> {
    const given = definedFields(fields);
    const updatedAt = isoSeconds(this.#now());
    return this.update((sessions) => {
      const current = sessions[key];
      if (!Object.hasOwn(sessions, key) || !isJsonObject(current)) return undefined;
      const next = orderRegistryEntry({
        ...current,
        ...given,
        updated_at: given.updated_at ?? updatedAt,
      });
      sessions[key] = next;
      return next;
    });
  }

  /**
   * Sets the status of `key`: 'completed' also sets `completed_at`, 'killed' sets `killed_at`
   * (to `at`, default the clock's now), 'running' clears both; `note` is replaced when given
   * (null clears it). Returns the new entry, or undefined when there is no such key.
   */
  async setStatus(
    key: string,
    status: SessionStatus,
    options: { at?: Date; note?: string | null } = {},
  ): Promise<SessionEntry | undefined> {
    const at = isoSeconds(options.at ?? this.#now());
    const fields: Partial<SessionEntry> = { status };
    if (status === 'completed') fields.completed_at = at;
    if (status === 'killed') fields.killed_at = at;
    if (status === 'running') {
      fields.killed_at = null;
      fields.completed_at = null;
    }
    if (options.note !== undefined) fields.note = options.note;
    return this.patch(key, fields);
  }

  /** Removes the entries `keys`; returns those that were there. */
  async remove(keys: readonly string[]): Promise<string[]> {
    return this.update((sessions) => {
      const removed: string[] = [];
      for (const key of new Set(keys)) {
        if (!Object.hasOwn(sessions, key)) continue;
        delete sessions[key];
        removed.push(key);
      }
      return removed;
    });
  }

  #now(): Date {
    return this.#options.clock?.() ?? new Date();
  }
}

/** The `sessions` object of a registry document (`{}` when absent), or undefined when unusable. */
function registrySessions(document: unknown): Record<string, unknown> | undefined {
  if (!isJsonObject(document)) return undefined;
  if (document.sessions === undefined) return {};
  return isJsonObject(document.sessions) ? document.sessions : undefined;
}

function assertKey(key: string): void {
  if (key !== '' && key !== '__proto__') return;
  throw new SessionsError(
    'SESSIONS_INVALID_NAME',
    `"${key}" cannot be a registry key: use loopSessionKey(name) or pipelineSessionKey(name)`,
    { details: { key } },
  );
}
