import { sep } from 'node:path';
import type { SandboxNetwork } from './sandbox-policy.js';

/** The private temporary directory inside the sandbox (a fresh tmpfs over the host's `/tmp`). */
export const SANDBOX_TMP = '/tmp';

/** One mount of the sandbox: a real (symlink-free) absolute path, bound onto itself. */
export interface SandboxMount {
  path: string;
  /**
   * `rw`: writable; `ro`: read-only, a protection (it wins over `rw` on the same path);
   * `visible`: read-only only to keep a path under the private `/tmp` in view (it loses to both).
   */
  mode: 'rw' | 'ro' | 'visible';
}

/** Resolved input of {@link bubblewrapArgs}: every path real and absolute. */
export interface BubblewrapInput {
  mounts: readonly SandboxMount[];
  network: SandboxNetwork;
  cwd: string;
  command: string;
  args: readonly string[];
}

/**
 * The flags every sandbox gets, in this order:
 * - `--die-with-parent`: the sandbox is SIGKILLed when the runtime dies, even by SIGKILL, so
 *   nothing a codon started outlives the runtime either;
 * - `--new-session`: no controlling terminal to inject keystrokes into (TIOCSTI);
 * - `--unshare-pid`: a PID namespace: when the command exits, every process it started (a
 *   `setsid nohup` one included) is killed by the kernel; `/proc` shows only the sandbox;
 * - `--unshare-ipc`: no System V IPC or POSIX message queues shared with the host;
 * - `--cap-drop ALL`: run as root, bubblewrap would keep every capability, and `mount -o
 *   remount,rw /` would undo the whole sandbox; with none, root inside is an ordinary user of the
 *   read-only mounts (bubblewrap also sets no_new_privs, so no setuid binary gives them back).
 */
export const SANDBOX_BASE_FLAGS: readonly string[] = Object.freeze([
  '--die-with-parent',
  '--new-session',
  '--unshare-pid',
  '--unshare-ipc',
  '--cap-drop',
  'ALL',
]);

/** True when `path` is `root` or lies under it (both absolute and normalised). */
export function isSameOrUnder(root: string, path: string): boolean {
  return path === root || path.startsWith(root === sep ? root : `${root}${sep}`);
}

function depth(path: string): number {
  return path.split(sep).filter((part) => part !== '').length;
}

/**
 * Orders the mounts so that a deeper path is mounted after (over) a shallower one, whatever its
 * mode: a writable `agentRoot` under a read-only data directory stays writable, and the read-only
 * data copy inside that writable `agentRoot` stays read-only. The same path named twice keeps the
 * protection (`ro` wins: it is never undone by a wider grant), and a grant wins over `visible`.
 */
export function orderMounts(mounts: readonly SandboxMount[]): SandboxMount[] {
  const rank = { visible: 0, rw: 1, ro: 2 } as const;
  const byPath = new Map<string, SandboxMount>();
  for (const mount of mounts) {
    const known = byPath.get(mount.path);
    if (!known || rank[mount.mode] > rank[known.mode]) byPath.set(mount.path, mount);
  }
  return [...byPath.values()].sort(
    (a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path),
  );
}

/**
 * The bubblewrap command line for one command: the host's root read-only, a minimal `/dev`, the
 * sandbox's own `/proc`, a private `/tmp`, then the policy's mounts (see {@link orderMounts}), the
 * working directory, and the command. Pure: the caller resolved every path.
 */
export function bubblewrapArgs(input: BubblewrapInput): string[] {
  const args = [...SANDBOX_BASE_FLAGS];
  if (input.network === 'none') args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', SANDBOX_TMP);
  for (const mount of orderMounts(input.mounts)) {
    args.push(mount.mode === 'rw' ? '--bind' : '--ro-bind', mount.path, mount.path);
  }
  args.push('--chdir', input.cwd, '--', input.command, ...input.args);
  return args;
}
