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
