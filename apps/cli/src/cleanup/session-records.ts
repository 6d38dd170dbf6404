import { existsSync } from 'node:fs';
import { parseSessionKey, SessionRegistry, sessionLayout } from '@hankweave/sessions';
import { sessionsBaseDir } from '../sessions/session-options.js';
import { removeInside } from './safe-remove.js';

/** The session registry's records of one execution: its keys and their files in `.claude/`. */
export interface SessionRecords {
  /** `<executions>/.claude`, where the records live. */
  claudeDir: string;
  /** The pipeline session of the execution and its loop sessions. */
  keys: string[];
  /** Their loop state, pipeline-run folder and progress files that exist. */
  files: string[];
}

/** Only a file-safe session name stands for files (keys other tools wrote may hold `..`). */
const FILE_SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * The records seed 004's registry keeps of `executionDir` (in the executions directory's
 * `.claude/`): the pipeline session naming it, its loop sessions, and their state files. Reads
 * only; an unreadable registry has none.
 */
export async function sessionRecordsOf(executionDir: string): Promise<SessionRecords> {
  const layout = sessionLayout(sessionsBaseDir(undefined));
  const records: SessionRecords = { claudeDir: layout.claudeDir, keys: [], files: [] };
  let sessions: Awaited<ReturnType<SessionRegistry['read']>>['sessions'];
  try {
    sessions = (await new SessionRegistry(layout.projectDir).read()).sessions;
  } catch {
    return records;
  }
  const pipelines = Object.entries(sessions)
    .filter(([, entry]) => entry.execution_dir === executionDir)
    .map(([key]) => key);
  // A loop session names its pipeline, not always the directory.
  const loops = Object.entries(sessions)
    .filter(([, entry]) => entry.parent !== undefined && pipelines.includes(entry.parent ?? ''))
    .map(([key]) => key);
  records.keys = [...pipelines, ...loops];
  for (const key of records.keys) {
    const { session } = parseSessionKey(key);
    if (!FILE_SAFE_NAME.test(session) || session === '.' || session === '..') continue;
    const own =
      sessions[key]?.type === 'pipeline'
        ? layout.pipelineDir(session)
        : layout.loopStateFile(session);
    for (const path of [own, layout.progressFile(session)])
      if (existsSync(path)) records.files.push(path);
  }
  return records;
}

/** Drops the records: the registry entries (under its lock), then their files. */
export async function forgetSessionRecords(records: SessionRecords): Promise<string[]> {
  if (records.keys.length === 0) return [];
  const removed = await new SessionRegistry(sessionsBaseDir(undefined))
    .remove(records.keys)
    .catch(() => []);
  for (const path of records.files) removeInside(records.claudeDir, path);
  return removed;
}
