import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import {
  parseSessionKey,
  readLoopState,
  readPipelineState,
  type SessionEntry,
  type SessionLayout,
} from '@hankweave/sessions';
import { isSameProcessAlive, readRuntimeLock, readState, totalCost } from '@hankweave/state';
import { executionLayout } from '../execution/layout.js';

/**
 * The total cost of an execution from its state.json, or null when there is no readable state
 * (never created, deleted, or both the file and its backup unreadable). Read without the lock:
 * state saves are atomic renames, so this sees one whole save.
 */
export async function executionCost(
  executionDir: string | null | undefined,
): Promise<number | null> {
  if (!executionDir) return null;
  const { hankweaveDir, stateFile } = executionLayout(executionDir);
  if (!existsSync(stateFile)) return null;
  try {
    const { state, source } = await readState(hankweaveDir);
    return source === 'fresh' ? null : totalCost(state);
  } catch {
    return null;
  }
}

/** A loop session's iterations run: its loop state's `iteration`, null when absent or unreadable. */
export async function loopIterations(layout: SessionLayout, key: string): Promise<number | null> {
  try {
    const state = await readLoopState(layout.loopStateFile(parseSessionKey(key).session));
    return typeof state?.iteration === 'number' ? state.iteration : null;
  } catch {
    return null;
  }
}

/**
 * A pipeline's iterations: the sum of `iterations_run` of the stages that are its loops (the
 * stages named by a child loop session's `loop_type`), null when it has no loop. Without a
 * readable pipeline state, the children's own loop states are summed instead.
 */
export async function pipelineIterations(
  layout: SessionLayout,
  key: string,
  children: readonly { key: string; entry: SessionEntry }[],
): Promise<number | null> {
  if (children.length === 0) return null;
  const loopIds = new Set(children.map((child) => child.entry.loop_type).filter(isString));
  try {
    const state = await readPipelineState(layout.pipelineStateFile(parseSessionKey(key).session));
    if (state) {
      const stages = state.stages.filter(
        (stage) => loopIds.has(stage.loop) || loopIds.has(stage.name),
      );
      if (stages.length > 0)
        return stages.reduce((sum, stage) => sum + (stage.iterations_run ?? 0), 0);
    }
  } catch {
    // An unreadable pipeline state: fall back to the loops' own files below.
  }
  let sum = 0;
  let known = false;
  for (const child of children) {
    const iterations = await loopIterations(layout, child.key);
    if (iterations !== null) {
      sum += iterations;
      known = true;
    }
  }
  return known ? sum : null;
}

/** True when the entry was written by a process on another machine (its pid means nothing here). */
export const onAnotherHost = (entry: SessionEntry): boolean =>
  typeof entry.hostname === 'string' && entry.hostname !== '' && entry.hostname !== hostname();

/**
 * Whether a running session's process is alive: null when that cannot be known (no pid, another
 * host) or the session is not running (a finished session's pid may belong to anyone by now).
 */
export async function sessionAlive(
  entry: SessionEntry,
  executionDir: string | null,
): Promise<boolean | null> {
  if (entry.status !== 'running') return null;
  if (typeof entry.pid !== 'number' || onAnotherHost(entry)) return null;
  // A pid that now names another process than the one runtime.lock recorded is a dead runtime.
  const lock = executionDir
    ? await readRuntimeLock(executionLayout(executionDir).hankweaveDir).catch(() => undefined)
    : undefined;
  return isSameProcessAlive(entry.pid, lock?.pid === entry.pid ? lock.processStartTime : undefined);
}

const isString = (value: unknown): value is string => typeof value === 'string' && value !== '';
