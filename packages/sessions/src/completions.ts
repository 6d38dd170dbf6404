import { type Fs, nodeFs } from '@hankweave/durable-io';
import { corruptFileError, isJsonObject, readJson } from './internal/json-file.js';
import { lockedJsonUpdate } from './internal/locked-json-update.js';
import { sessionLayout } from './layout.js';
import {
  DEFAULT_LOCK_STALE_MS,
  DEFAULT_LOCK_TIMEOUT_MS,
  type SessionRegistryOptions,
  type SessionStatus,
} from './registry.js';

// The seed names `loop-completions.json` ("log of all completions, optional") but gives no
// schema; this one is ours: `{"completions": [record, ...]}`, oldest first, append-only.

/** One line of the completions log: a session that ended, and how. */
export interface CompletionRecord {
  /** The session name (without the `loop-`/`pipeline-` prefix). */
  session: string;
  type: 'loop' | 'pipeline';
  /** The registry status it ended with, or `failed` for a loop or pipeline that failed. */
  status: SessionStatus | 'failed';
  /** When it ended (ISO-8601). */
  at: string;
  /** Why it ended (`plateau`, `iteration_limit`, `error`, ...). */
  reason?: string | null;
  /** Iterations run (loops). */
  iterations?: number | null;
  [extra: string]: unknown;
}

/**
 * Appends `record` to `P/.claude/loop-completions.json` under that file's own lock (the same
 * mechanism as the registry's), durably. An unparseable log is moved aside (`onWarning`) and a
 * new one started.
 * @throws {SessionsError} SESSIONS_LOCK_TIMEOUT; SESSIONS_IO
 */
export async function appendCompletion(
  projectDir: string,
  record: CompletionRecord,
  options: SessionRegistryOptions = {},
): Promise<void> {
  const layout = sessionLayout(projectDir);
  const target = {
    file: layout.completionsFile,
    lockFile: layout.completionsLockFile,
    fs: options.fs ?? nodeFs,
    staleMs: options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
    timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    empty: () => ({ completions: [] }),
    isUsable: (document: Record<string, unknown>) =>
      document.completions === undefined || Array.isArray(document.completions),
    description: 'completions log',
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  };
  await lockedJsonUpdate(target, (document) => {
    const completions = Array.isArray(document.completions) ? document.completions : [];
    completions.push(record);
    document.completions = completions;
  });
}

/**
 * The records of the completions log, oldest first; [] when there is none. Entries that are not
 * records (no string `session` and `at`, an unknown `type`) are skipped.
 * @throws {SessionsError} SESSIONS_CORRUPT_FILE when the file is not a completions log.
 */
export async function readCompletions(projectDir: string, fs?: Fs): Promise<CompletionRecord[]> {
  const file = sessionLayout(projectDir).completionsFile;
  const read = await readJson(file, fs);
  if (read.kind === 'missing') return [];
  if (read.kind === 'unparseable') throw corruptFileError(file, 'is not valid JSON', read.error);
  const completions = isJsonObject(read.value) ? read.value.completions : undefined;
  if (completions === undefined && isJsonObject(read.value)) return [];
  if (!Array.isArray(completions)) {
    throw corruptFileError(file, 'is not an object of the form {"completions": [...]}');
  }
  return completions.filter(isCompletionRecord);
}

function isCompletionRecord(value: unknown): value is CompletionRecord {
  return (
    isJsonObject(value) &&
    typeof value.session === 'string' &&
    typeof value.at === 'string' &&
    typeof value.status === 'string' &&
    (value.type === 'loop' || value.type === 'pipeline')
  );
}
