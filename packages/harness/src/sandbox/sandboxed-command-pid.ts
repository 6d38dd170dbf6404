import { readdirSync, readFileSync } from 'node:fs';

/** The children of `pid` (its main thread's), from /proc. */
export function childrenOf(pid: number): number[] {
  try {
    // One line of space-separated pids per thread; the main thread's is the one that forks here.
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter((part) => part !== '')
      .map(Number);
  } catch {
    return scanForChildren(pid);
  }
}

// Kernels built without CONFIG_PROC_CHILDREN: the parent pid of every process, from /proc/*/stat.
function scanForChildren(pid: number): number[] {
  const children: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return children;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) comes after the command name, which may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/**
 * The host pid of the command a bubblewrap sandbox runs: bubblewrap (`bwrapPid`) forks the
 * sandbox's init (pid 1 inside the PID namespace), which forks the command. Undefined when the
 * command is not (or no longer) there, or this is not Linux. Used to ask the agent to stop with
 * SIGTERM, as without a sandbox: a SIGTERM to bubblewrap itself ends the sandbox at once (it
 * does not forward signals), without the agent's graceful exit.
 */
export function sandboxedCommandPid(bwrapPid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  const [init] = childrenOf(bwrapPid);
  if (init === undefined) return undefined;
  const [command] = childrenOf(init);
  return command;
}
