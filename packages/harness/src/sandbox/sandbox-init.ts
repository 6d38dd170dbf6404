import { readFileSync } from 'node:fs';
import { sleep } from '@hankweave/durable-io';
import { childrenOf } from './sandboxed-command-pid.js';

// Bubblewrap's outer process exits as soon as the sandbox's init reports the command's exit
// status. The init itself goes on waiting for the processes left in the PID namespace (a
// detached background job of the agent) until the death signal `--die-with-parent` asked for
// reaches it; only its exit makes the kernel kill the rest. That happens a moment after
// bubblewrap's exit, so a caller told "exited" could still see the agent's processes. Hence:
// SIGKILL the init at once, and wait until it has exited, which the kernel lets it do only once
// every process of its namespace has.

/** A process, told apart from a later one that reuses its pid by its start time. */
export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot. */
  startTicks: string;
}

/** Fields 3.. of /proc/<pid>/stat (after the command name, which may hold spaces), or undefined. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The sandbox's init (bubblewrap's only child), once it is there; undefined when it is not. */
export function sandboxInit(bwrapPid: number): ProcessIdentity | undefined {
  if (process.platform !== 'linux') return undefined;
  const [pid] = childrenOf(bwrapPid);
  if (pid === undefined) return undefined;
  const startTicks = statFields(pid)?.[19];
  return startTicks === undefined ? undefined : { pid, startTicks };
}

/** True while `init` runs: not gone, not a zombie, and not a later process under its pid. */
export function isRunning(init: ProcessIdentity): boolean {
  const fields = statFields(init.pid);
  return fields !== undefined && fields[0] !== 'Z' && fields[19] === init.startTicks;
}

/**
 * Ends a sandbox whose bubblewrap has exited: SIGKILLs its init (never a later process that
 * reuses the pid) and resolves once the init has exited, and with it every process of the
 * namespace. Gives up after `timeoutMs` (a process stuck in the kernel).
 */
export async function endSandbox(init: ProcessIdentity, timeoutMs = 5000): Promise<void> {
  if (!isRunning(init)) return;
  try {
    process.kill(init.pid, 'SIGKILL');
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (isRunning(init) && Date.now() < deadline) await sleep(2);
}
