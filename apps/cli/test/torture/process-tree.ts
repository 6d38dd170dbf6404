import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc/<pid>/stat describes it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** `R`, `S`, `D`, `T` (stopped), `Z` (zombie: already dead, waiting to be reaped), ... */
  state: string;
  /** Clock ticks after boot: with the pid, names a process even after its pid is reused. */
  startTime: string;
}

/** What {@link killProcessTree} did. */
export interface TreeKill {
  /** Every process that was stopped, then killed (the CLI included). */
  pids: number[];
  /** The process groups and sessions killed as a whole. */
  groups: number[];
  /** How long from the first SIGSTOP to the last process gone, in ms. */
  durationMs: number;
}

/** Parses /proc/<pid>/stat; undefined when the process is gone. */
export function processInfo(pid: number | 'self'): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself hold spaces or parentheses: the fields
  // that follow start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid: Number(stat.slice(0, stat.indexOf(' '))),
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: fields[19] ?? '',
  };
}

/** Every live process of the machine (zombies included). */
export function listProcesses(): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = processInfo(Number(name));
    if (info) processes.push(info);
  }
  return processes;
}

const signal = (target: number, name: NodeJS.Signals): void => {
  try {
    process.kill(target, name);
  } catch {
    // ESRCH: already gone (or a group that emptied between the scan and the signal).
  }
};

/**
 * The members of the tree: `root`, its descendants, and every process in a process group or
 * session that one of them leads or belongs to (agents run in their own process groups, and an
 * orphan keeps its group after its parent dies). The test runner's own group and session are
 * never members, nor is pid 1.
 */
function treeMembers(
  root: number,
  known: Set<number>,
  groups: Set<number>,
  protectedIds: Set<number>,
): ProcessInfo[] {
  const processes = listProcesses();
  const byParent = new Map<number, ProcessInfo[]>();
  for (const info of processes) {
    const siblings = byParent.get(info.ppid) ?? [];
    siblings.push(info);
    byParent.set(info.ppid, siblings);
  }
  const members = new Map<number, ProcessInfo>();
  const visit = (info: ProcessInfo): void => {
    if (members.has(info.pid) || info.pid === 1 || info.pid === process.pid) return;
    members.set(info.pid, info);
    for (const child of byParent.get(info.pid) ?? []) visit(child);
  };
  for (const info of processes) {
    if (
      info.pid === root ||
      known.has(info.pid) ||
      (groups.has(info.pgid) && !protectedIds.has(info.pgid)) ||
      (groups.has(info.sid) && !protectedIds.has(info.sid))
    )
      visit(info);
  }
  return [...members.values()];
}

/**
 * SIGKILLs a process and everything it started, as one instant crash of the machine would: first
 * SIGSTOP the root and every member found (a stopped process can neither fork nor write), rescan
 * until no new member appears, then SIGKILL every group and every process, and wait until none is
 * left alive. (The `claudePid`s of state.json are not used: a stale one may name a process that
 * reused the pid; every agent is a descendant of the CLI, found through /proc.)
 */
export async function killProcessTree(root: number): Promise<TreeKill> {
  const started = Date.now();
  // Stop the root before anything else: this is the moment of the crash.
  signal(root, 'SIGSTOP');
  const self = processInfo('self');
  const protectedIds = new Set([1, process.pid, self?.pgid ?? -1, self?.sid ?? -1]);
  const known = new Set<number>([root]);
  const groups = new Set<number>();
  for (let round = 0; round < 50; round++) {
    let grew = false;
    for (const member of treeMembers(root, known, groups, protectedIds)) {
      if (!known.has(member.pid)) grew = true;
      known.add(member.pid);
      for (const id of [member.pgid, member.sid])
        if (!protectedIds.has(id) && !groups.has(id)) {
          groups.add(id);
          grew = true;
        }
      signal(member.pid, 'SIGSTOP');
    }
    if (!grew && round > 0) break;
  }
  for (const group of groups) signal(-group, 'SIGKILL');
  for (const pid of known) signal(pid, 'SIGKILL');
  // Wait until every member is dead (a zombie is dead; its parent, if alive, reaps it). Only the
  // processes seen above are awaited, by pid and start time, so a reused pid is never signalled.
  const deadline = Date.now() + 10_000;
  const identity = new Map<number, string>();
  for (const pid of known) {
    const info = processInfo(pid);
    if (info) identity.set(pid, info.startTime);
  }
  for (;;) {
    const alive = [...identity].filter(([pid, startTime]) => {
      const info = processInfo(pid);
      return info !== undefined && info.startTime === startTime && info.state !== 'Z';
    });
    if (alive.length === 0) break;
    if (Date.now() > deadline)
      throw new Error(`processes survived SIGKILL: ${alive.map(([pid]) => pid).join(', ')}`);
    for (const [pid] of alive) signal(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { pids: [...known], groups: [...groups], durationMs: Date.now() - started };
}
