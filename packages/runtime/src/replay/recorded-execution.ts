import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { codonFileName } from '../execution/layout.js';

/**
 * The agent logs of a recorded execution, ours or the original runtime's. Each codon's log is
 * where its record in state.json says (`claudeLogPath`, relative to `.hankweave/`): ours name
 * loop codons `review_1-claude.log`, the original `review-1-claude.log` or `review#1-claude.log`.
 * Without a usable state.json, the log is looked for at `runs/{runId}/{codonId}-claude.log`
 * (`#` kept or written as `_`), newest run first. Reading is tolerant: a missing or unreadable
 * state.json only loses the recorded paths and the run order.
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
  const hankweaveDir = join(runsDir, '..');
  const recorded = readRecordedState(join(hankweaveDir, 'state.json'));
  // state.json lists runs newest first (seed 000); runIds are oldest first.
  const runIds = orderRuns(folders, [...recorded.runIds].reverse());
  return {
    runsDir,
    runIds,
    logOf(codonId) {
      const path = recorded.logPaths.get(codonId);
      if (path !== undefined) {
        for (const candidate of isAbsolute(path)
          ? [path]
          : [join(hankweaveDir, path), join(hankweaveDir, '..', path)]) {
          if (existsSync(candidate)) return candidate;
        }
      }
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

interface RecordedState {
  /** Run ids in the order state.json lists them: newest first. */
  runIds: string[];
  /** Each codon's agent log as its newest record with one names it. */
  logPaths: Map<string, string>;
}

/** What a recording's state.json says about its runs and logs (nothing when it is unusable). */
function readRecordedState(statePath: string): RecordedState {
  const recorded: RecordedState = { runIds: [], logPaths: new Map() };
  let state: { runs?: unknown };
  try {
    state = JSON.parse(readFileSync(statePath, 'utf8')) as { runs?: unknown };
  } catch {
    // Tolerant reading: without a usable state.json, run folders are taken in name order.
    return recorded;
  }
  if (!Array.isArray(state.runs)) return recorded;
  // Runs are listed newest first, codons oldest first: the first path seen, walking runs in
  // order and each run's codons from its end, is the newest.
  for (const run of state.runs as { runId?: unknown; codons?: unknown }[]) {
    if (typeof run?.runId === 'string') recorded.runIds.push(run.runId);
    const codons = Array.isArray(run?.codons) ? [...run.codons].reverse() : [];
    for (const codon of codons as { codonId?: unknown; claudeLogPath?: unknown }[]) {
      if (typeof codon?.codonId !== 'string' || typeof codon.claudeLogPath !== 'string') continue;
      if (!recorded.logPaths.has(codon.codonId)) {
        recorded.logPaths.set(codon.codonId, codon.claudeLogPath);
      }
    }
  }
  return recorded;
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
