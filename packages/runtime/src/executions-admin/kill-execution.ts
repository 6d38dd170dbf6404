import { hasErrno, sleep } from '@hankweave/durable-io';
import { type SessionEntry, SessionRegistry } from '@hankweave/sessions';
import { isPidAlive, isSameProcessAlive, readRuntimeLock } from '@hankweave/state';
import type { RuntimeLock } from '@hankweave/types';
import { executionLayout } from '../execution/layout.js';
import { onAnotherHost } from './execution-facts.js';
import { executionRefusal } from './execution-refusal.js';
import { markEnded } from './mark-ended.js';

/** What {@link killExecution} did. */
export interface KillResult {
  /** The session asked for. */
  key: string;
  /**
   * `stopped`: it exited (or released its lock) within the grace period after SIGTERM;
   * `forced`: it was SIGKILLed after the grace period; `not-running`: the registry says it has
   * ended; `already-dead`: its process was gone (now marked `unknown_termination`).
   */
  outcome: 'stopped' | 'forced' | 'not-running' | 'already-dead';
  pid: number | null;
  /** From SIGTERM until the process was seen gone (0 when nothing was signalled). */
  waitedMs: number;
}

/** Options of {@link killExecution}. */
export interface KillExecutionOptions {
  /** The project directory holding `.claude/` (the execution base directory). */
  projectDir: string;
  /** How long SIGTERM may take before SIGKILL (default 10 000 ms). */
  graceMs?: number;
}

const POLL_MS = 100;
const AFTER_SIGKILL_MS = 5_000;

/**
 * Stops the execution of a running registry session: SIGTERM to its runtime (a loop session
 * stops its pipeline's runtime), up to `graceMs` for the process to exit or release
 * `runtime.lock`, then SIGKILL.
 * Afterwards the session and its running loops say `killed` with `killed_at`: the runtime writes
 * that itself on a graceful stop; otherwise (a forced kill, or a runtime that wrote nothing) this
 * function writes it, with a note.
 *
 * @throws {RuntimeError} RUNTIME_INVALID_OPTION with `details.reason`: `unknown-session` (no such
 *   key), `no-pid`, `other-host` (the pid belongs to another machine), `pid-not-owner` (the pid
 *   is alive but does not hold the execution's runtime.lock: a reused pid), `not-permitted`.
 */
export async function killExecution(
  key: string,
  options: KillExecutionOptions,
): Promise<KillResult> {
  const graceMs = options.graceMs ?? 10_000;
  const registry = new SessionRegistry(options.projectDir);
  const { sessions } = await registry.read();
  const asked = sessions[key];
  if (!asked) {
    throw executionRefusal(
      'unknown-session',
      `There is no session "${key}" in ${registry.file}; list them with \`hankweave sessions --all\``,
      { key, registry: registry.file },
    );
  }
  // A loop runs inside its pipeline's runtime: stopping the loop means stopping that runtime.
  const parent = asked.parent ? sessions[asked.parent] : undefined;
  const [targetKey, target] =
    asked.type === 'loop' && asked.parent && parent?.status === 'running'
      ? [asked.parent, parent]
      : [key, asked];
  const pid = typeof target.pid === 'number' ? target.pid : null;
  if (target.status !== 'running') return { key, outcome: 'not-running', pid, waitedMs: 0 };
  if (pid === null) {
    throw executionRefusal(
      'no-pid',
      `Session ${targetKey} records no pid, so there is no process to stop; if it is not running, mark it with \`hankweave sessions --check\``,
      { key: targetKey },
    );
  }
  if (onAnotherHost(target)) {
    throw executionRefusal(
      'other-host',
      `Session ${targetKey} runs on host ${String(target.hostname)}, not on this one; stop it there`,
      { key: targetKey, pid, hostname: target.hostname },
    );
  }
  const lock = await lockOf(target.execution_dir);
  // The lock records when its holder started: the same pid started at another time is another
  // process (the runtime died and its pid was reused), never to be signalled.
  const startTime = lock?.pid === pid ? lock.processStartTime : undefined;
  if (!isSameProcessAlive(pid, startTime)) {
    const reused = isPidAlive(pid);
    await markEnded(registry, targetKey, {
      status: 'unknown_termination',
      note: reused
        ? `the runtime (process ${pid}) was gone when it was asked to stop; pid ${pid} now belongs to another process, which was not signalled (at ${new Date().toISOString()})`
        : `process ${pid} was already gone when it was asked to stop (at ${new Date().toISOString()})`,
      at: new Date(),
      pid,
    });
    return { key, outcome: 'already-dead', pid, waitedMs: 0 };
  }
  await assertOwnsLock(targetKey, target, pid);

  const started = Date.now();
  if (!signal(pid, 'SIGTERM', targetKey)) return finishStopped(registry, key, targetKey, pid, 0);
  const alive = () => isSameProcessAlive(pid, startTime);
  const stopped = await waitUntil(
    // An unreadable lock counts as still held: only a missing or another process's lock is a release.
    async () => !alive() || !(await holdsLock(target.execution_dir, pid, true)),
    graceMs,
  );
  if (stopped) return finishStopped(registry, key, targetKey, pid, Date.now() - started);

  // Checked again right before the SIGKILL: the pid must still be the runtime's.
  if (alive()) signal(pid, 'SIGKILL', targetKey);
  await waitUntil(async () => !alive(), AFTER_SIGKILL_MS);
  const waitedMs = Date.now() - started;
  await markEnded(registry, targetKey, {
    status: 'killed',
    note: `forced after ${formatSeconds(graceMs)}: process ${pid} did not stop on SIGTERM and was sent SIGKILL`,
    at: new Date(),
    pid,
  });
  return { key, outcome: 'forced', pid, waitedMs };
}

/** The session's pid must be the one holding its execution's runtime.lock: pids are reused. */
async function assertOwnsLock(key: string, entry: SessionEntry, pid: number): Promise<void> {
  if (await holdsLock(entry.execution_dir, pid)) return;
  const lockFile = entry.execution_dir
    ? executionLayout(entry.execution_dir).lockFile
    : '(no execution_dir recorded)';
  throw executionRefusal(
    'pid-not-owner',
    `Process ${pid} is alive but does not hold ${lockFile}, so it is probably not session ${key} (pids are reused); check it with \`ps -p ${pid}\`, and mark the session with \`hankweave sessions --check\` if it has died`,
    { key, pid, lockFile },
  );
}

/** The execution's runtime.lock, or undefined (none, unreadable, no execution recorded). */
async function lockOf(executionDir: string | null | undefined): Promise<RuntimeLock | undefined> {
  if (!executionDir) return undefined;
  return readRuntimeLock(executionLayout(executionDir).hankweaveDir).catch(() => undefined);
}

/** Whether `pid` holds the lock; `whenUnreadable` answers for a lock that cannot be read now. */
async function holdsLock(
  executionDir: string | null | undefined,
  pid: number,
  whenUnreadable = false,
): Promise<boolean> {
  if (!executionDir) return false;
  try {
    const lock = await readRuntimeLock(executionLayout(executionDir).hankweaveDir);
    return lock?.pid === pid && isSameProcessAlive(pid, lock.processStartTime);
  } catch {
    return whenUnreadable;
  }
}

/** Sends a signal; false when the process is already gone. */
function signal(pid: number, name: NodeJS.Signals, key: string): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch (error) {
    if (hasErrno(error, 'ESRCH')) return false;
    if (hasErrno(error, 'EPERM')) {
      throw executionRefusal(
        'not-permitted',
        `Not allowed to signal process ${pid} of session ${key} (it belongs to another user); stop it as that user`,
        { key, pid },
      );
    }
    throw error;
  }
}

/** After a graceful stop: the runtime wrote `killed` itself; a process that did not gets it here. */
async function finishStopped(
  registry: SessionRegistry,
  key: string,
  targetKey: string,
  pid: number,
  waitedMs: number,
): Promise<KillResult> {
  await markEnded(registry, targetKey, {
    status: 'killed',
    note: `stopped with SIGTERM; process ${pid} did not record its own ending`,
    at: new Date(),
    pid,
  });
  return { key, outcome: 'stopped', pid, waitedMs };
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
  }
}

const formatSeconds = (ms: number): string =>
  ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
