import { readFileSync } from 'node:fs';
import { hasErrno } from '@hankweave/durable-io';

// A killed process whose parent has not reaped it yet (or whose parent is a container's pid 1
// that never reaps) is a zombie: kill(pid, 0) still succeeds, but it will never run again.
const isZombie = (pid: number): boolean => {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
};

/**
 * True when a process with this pid exists and can still run. `EPERM` (it exists but belongs to
 * another user) counts as alive; zombies (Linux) count as dead; pids that are not positive
 * integers are never alive (`kill(0)` would signal our own process group).
 */
export const isPidAlive = (pid: number): boolean => {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return hasErrno(error, 'EPERM');
  }
  return !isZombie(pid);
};

/** The kernel's id of this boot: start times of processes compare only within one boot. */
const bootId = (() => {
  let cached: string | null | undefined;
  return (): string | undefined => {
    if (cached === undefined) {
      try {
        cached = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
      } catch {
        cached = null;
      }
    }
    return cached ?? undefined;
  };
})();

/**
 * When a process started, as an opaque string that differs between two processes that had the
 * same pid: Linux's start time (field 22 of `/proc/<pid>/stat`, clock ticks since boot) with the
 * boot's id, `<boot_id>:<ticks>`. Undefined when the process does not exist or this is not Linux.
 * Pids are reused; a pid with the start time recorded beside it names one process for good.
 */
export const processStartTime = (pid: number): string | undefined => {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself:
  // fields are counted from after its last ')', where field 3 starts.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields[22 - 3];
  if (ticks === undefined || !/^\d+$/.test(ticks)) return undefined;
  const boot = bootId();
  return boot === undefined ? ticks : `${boot}:${ticks}`;
};

/**
 * True when `pid` is alive and is the process that was recorded with `startTime`: the same pid
 * with another start time is a different process (the recorded one is gone). Without a recorded
 * start time (files of the original runtime and of ours before it), or where start times cannot
 * be read, this is {@link isPidAlive}.
 */
export const isSameProcessAlive = (pid: number, startTime: string | undefined): boolean => {
  if (!isPidAlive(pid)) return false;
  if (startTime === undefined) return true;
  const now = processStartTime(pid);
  return now === undefined || now === startTime;
};
