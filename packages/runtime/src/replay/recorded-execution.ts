import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codonFileName } from '../execution/layout.js';

/**
 * The agent logs of a recorded execution, ours or the original runtime's: both keep them at
 * `.hankweave/runs/{runId}/{codonId}-claude.log` (seed 001); ours write `#` as `_`, the original
 * keeps `#`. Reading is tolerant: a missing or unreadable state.json only loses the run order.
 */
export interface RecordedExecution {
  /** The directory searched for `{runId}/` folders (shown when a codon has no recording). */
  readonly runsDir: string;
  /** Run ids that have a folder, oldest first. */
  readonly runIds: readonly string[];
  /**
   * The log of the codon's last recorded run: the newest run that has a log for it (a codon
   * retried in a later run, for instance after a failure and a continuation, replays its last try).
   */
  logOf(codonId: string): string | undefined;
}

/** `<dir>/.hankweave/runs` of an execution directory, or `<dir>/runs` when given `.hankweave`. */
export function findRunsDir(executionDir: string): string | undefined {
  for (const candidate of [join(executionDir, '.hankweave', 'runs'), join(executionDir, 'runs')]) {
    if (isDirectory(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Opens the recorded execution at `executionDir` (synchronously: it only lists folders).
 * Returns undefined when it has no `runs` folder.
 */
export function openRecordedExecution(executionDir: string): RecordedExecution | undefined {
  const runsDir = findRunsDir(executionDir);
  if (runsDir === undefined) return undefined;
  const folders = readdirSync(runsDir).filter((name) => isDirectory(join(runsDir, name)));
  const runIds = orderRuns(folders, readRunOrder(join(runsDir, '..', 'state.json')));
  return {
    runsDir,
    runIds,
    logOf(codonId) {
      const names = [...new Set([`${codonFileName(codonId)}-claude.log`, `${codonId}-claude.log`])];
      for (const runId of [...runIds].reverse()) {
        for (const name of names) {
          const path = join(runsDir, runId, name);
          if (existsSync(path)) return path;
        }
      }
      return undefined;
    },
  };
}

/** Run ids in the order state.json lists them (runs are appended as they start). */
function readRunOrder(statePath: string): string[] {
  try {
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { runs?: unknown };
    if (!Array.isArray(state.runs)) return [];
    return state.runs.flatMap((run) =>
      typeof (run as { runId?: unknown })?.runId === 'string'
        ? [(run as { runId: string }).runId]
        : [],
    );
  } catch {
    // Tolerant reading: without a usable state.json, run folders are taken in name order.
    return [];
  }
}

function orderRuns(folders: string[], stateOrder: string[]): string[] {
  const known = stateOrder.filter((runId) => folders.includes(runId));
  const rest = folders.filter((name) => !known.includes(name)).sort();
  // Folders state.json does not know are older leftovers or a hand-made layout: they go first,
  // so a run the state names wins.
  return [...rest, ...known];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface LogLineShape {
  type?: unknown;
  subtype?: unknown;
}

function shapeOf(line: string): LogLineShape {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null ? (value as LogLineShape) : {};
  } catch {
    return {};
  }
}

/** Lines that end a session: a result (also the idle watchdog's) or the harness's kill note. */
function endsSession({ type, subtype }: LogLineShape): boolean {
  return type === 'result' || (type === 'harness' && subtype === 'killed');
}

/** Lines the agent prints while it works: after an end, the first of them opens the next session. */
function isAgentLine({ type }: LogLineShape): boolean {
  return type === 'system' || type === 'assistant' || type === 'user';
}

/**
 * Splits one agent log into its sessions. A log gets one session per start of the agent: the
 * first attempt, each `exhaustWithPrompt` extension and each retry append to the same file.
 * A session ends at a result or a kill note; the next begins at the next line the agent prints
 * (trailing stderr and second results stay with the session they follow), or at a second
 * `system/init` of a session that never ended (an agent that died without a result).
 */
export function splitSessions(text: string): string[][] {
  const sessions: string[][] = [];
  let current: string[] = [];
  let ended = false;
  let initSeen = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const shape = shapeOf(line);
    const isInit = shape.type === 'system' && shape.subtype === 'init';
    if (current.length > 0 && ((ended && isAgentLine(shape)) || (isInit && initSeen))) {
      sessions.push(current);
      current = [];
      ended = false;
      initSeen = false;
    }
    current.push(line);
    if (isInit) initSeen = true;
    if (endsSession(shape)) ended = true;
  }
  if (current.length > 0) sessions.push(current);
  return sessions;
}

/** True when the session's recording ends with the harness's kill note (the agent was stopped). */
export function recordedKill(lines: readonly string[]): boolean {
  return lines.some((line) => {
    const shape = shapeOf(line);
    return shape.type === 'harness' && shape.subtype === 'killed';
  });
}
