import { join } from 'node:path';
import { SessionsError } from './errors.js';

/** The directory under a project that holds every session file (seed 004's `.claude/`). */
export const SESSIONS_DIR_NAME = '.claude';

const REGISTRY_FILE_NAME = 'loop-sessions.json';
const COMPLETIONS_FILE_NAME = 'loop-completions.json';
const PROGRESS_DIR_NAME = 'loop-progress';
const PIPELINE_RUNS_DIR_NAME = 'pipeline-runs';

// A session name becomes part of file names (`loop-state-{s}.json`) and a directory name
// (`pipeline-runs/{s}/`), so it must be one safe path segment. 200 leaves room for the
// longest prefix and suffix within the usual 255-byte name limit.
const SESSION_NAME = /^[A-Za-z0-9._-]{1,200}$/;

/** Throws SESSIONS_INVALID_NAME unless `session` is one file-safe path segment. */
export function assertSessionName(session: string): void {
  if (SESSION_NAME.test(session) && session !== '.' && session !== '..') return;
  throw new SessionsError(
    'SESSIONS_INVALID_NAME',
    `"${session}" is not a usable session name: use 1 to 200 characters of [A-Za-z0-9._-] ` +
      '(not "." or ".."); toSessionName(...) makes one from any text',
    { details: { session } },
  );
}

/** Where every session file of one project directory lives (absolute paths). */
export interface SessionLayout {
  /** The project directory P (the runtime passes the execution base directory). */
  readonly projectDir: string;
  /** `P/.claude` */
  readonly claudeDir: string;
  /** `P/.claude/loop-sessions.json` */
  readonly registryFile: string;
  /** `P/.claude/loop-completions.json` */
  readonly completionsFile: string;
  /** `P/.claude/loop-sessions.json.lock` (a directory while a process holds the lock) */
  readonly registryLockFile: string;
  /** `P/.claude/loop-completions.json.lock` */
  readonly completionsLockFile: string;
  /** `P/.claude/loop-state-{session}.json` @throws {SessionsError} SESSIONS_INVALID_NAME */
  loopStateFile(session: string): string;
  /** `P/.claude/pipeline-runs/{session}` @throws {SessionsError} SESSIONS_INVALID_NAME */
  pipelineDir(session: string): string;
  /** `P/.claude/pipeline-runs/{session}/state.json` @throws {SessionsError} SESSIONS_INVALID_NAME */
  pipelineStateFile(session: string): string;
  /** `P/.claude/loop-progress/progress-{session}.txt` @throws {SessionsError} SESSIONS_INVALID_NAME */
  progressFile(session: string): string;
}

/** The paths of seed 004's files under `projectDir`. Nothing is read or created. */
export function sessionLayout(projectDir: string): SessionLayout {
  const claudeDir = join(projectDir, SESSIONS_DIR_NAME);
  const registryFile = join(claudeDir, REGISTRY_FILE_NAME);
  const completionsFile = join(claudeDir, COMPLETIONS_FILE_NAME);
  const pipelineDir = (session: string): string => {
    assertSessionName(session);
    return join(claudeDir, PIPELINE_RUNS_DIR_NAME, session);
  };
  return {
    projectDir,
    claudeDir,
    registryFile,
    completionsFile,
    registryLockFile: `${registryFile}.lock`,
    completionsLockFile: `${completionsFile}.lock`,
    loopStateFile(session) {
      assertSessionName(session);
      return join(claudeDir, `loop-state-${session}.json`);
    },
    pipelineDir,
    pipelineStateFile: (session) => join(pipelineDir(session), 'state.json'),
    progressFile: (session) => join(projectDir, progressFileRelativePath(session)),
  };
}

/**
 * `.claude/loop-progress/progress-{session}.txt`: POSIX and relative, so it also names the file
 * inside an agent's working directory (where the runtime keeps a loop's progress file).
 * @throws {SessionsError} SESSIONS_INVALID_NAME
 */
export function progressFileRelativePath(session: string): string {
  assertSessionName(session);
  return `${SESSIONS_DIR_NAME}/${PROGRESS_DIR_NAME}/progress-${session}.txt`;
}

/** The registry key of a loop session: `loop-{session}`. @throws {SessionsError} SESSIONS_INVALID_NAME */
export const loopSessionKey = (session: string): string => {
  assertSessionName(session);
  return `loop-${session}`;
};

/** The registry key of a pipeline session: `pipeline-{session}`. @throws {SessionsError} SESSIONS_INVALID_NAME */
export const pipelineSessionKey = (session: string): string => {
  assertSessionName(session);
  return `pipeline-${session}`;
};

/**
 * Splits a registry key into its type and session name. A key without a known prefix (the
 * seed's tools accept any) gives `type: undefined` and the whole key as `session`.
 */
export function parseSessionKey(key: string): {
  type: 'loop' | 'pipeline' | undefined;
  session: string;
} {
  if (key.startsWith('loop-')) return { type: 'loop', session: key.slice('loop-'.length) };
  if (key.startsWith('pipeline-')) {
    return { type: 'pipeline', session: key.slice('pipeline-'.length) };
  }
  return { type: undefined, session: key };
}

/**
 * A file-safe session name from any text: joins `parts` with '-' and replaces every character
 * outside [A-Za-z0-9._-] with '_' (`toSessionName('my hank', 'a1')` is `my_hank-a1`).
 */
export function toSessionName(...parts: string[]): string {
  return parts.join('-').replace(/[^A-Za-z0-9._-]/gu, '_');
}
