import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { bubblewrapArgs } from './bubblewrap-args.js';

/** The environment variable that names the bubblewrap executable (default: `bwrap` on `PATH`). */
export const BUBBLEWRAP_PATH_ENV = 'HANKWEAVE_BWRAP_PATH';

/** What to install, said once at preflight when no sandbox is found. */
export const SANDBOX_INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)';

/** The outcome of {@link detectSandbox}. */
export type SandboxAvailability =
  | { available: true; kind: 'bubblewrap'; path: string; version?: string }
  | {
      available: false;
      /** Why not, in one sentence (no bwrap on PATH, user namespaces disabled, not Linux). */
      reason: string;
      /** What to do about it. */
      hint: string;
    };

/** Options of {@link detectSandbox}. */
export interface DetectSandboxOptions {
  /** Where `HANKWEAVE_BWRAP_PATH` and `PATH` are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Probe again even when this executable was probed before in this process. */
  fresh?: boolean;
}

const PROBE_TIMEOUT_MS = 10_000;
const probes = new Map<string, Promise<SandboxAvailability>>();

function executableOnPath(name: string, env: DetectSandboxOptions['env']): string | undefined {
  for (const dir of (env?.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function run(
  command: string,
  args: readonly string[],
): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { timeout: PROBE_TIMEOUT_MS, env: { PATH: '/usr/bin:/bin' } },
      (error, stdout, stderr) => resolve({ ok: error === null, stdout, stderr }),
    );
  });
}

async function probe(path: string): Promise<SandboxAvailability> {
  const version = await run(path, ['--version']);
  if (!version.ok) {
    return {
      available: false,
      reason: `${path} does not run (${version.stderr.trim() || 'no output'})`,
      hint: SANDBOX_INSTALL_HINT,
    };
  }
  // The probe uses the very flags every sandboxed command gets: a kernel without unprivileged
  // user namespaces, or a container that forbids mounting /proc, fails here and not in a codon.
  const trial = await run(
    path,
    bubblewrapArgs({ mounts: [], network: 'host', cwd: '/', command: 'true', args: [] }),
  );
  if (!trial.ok) {
    return {
      available: false,
      reason: `bubblewrap cannot create a sandbox here: ${trial.stderr.trim() || 'it failed without a message'}`,
      hint: 'enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0), or run where bubblewrap may mount /proc',
    };
  }
  const text = version.stdout.trim();
  return {
    available: true,
    kind: 'bubblewrap',
    path,
    ...(text !== '' ? { version: text.replace(/^bubblewrap\s+/i, '') } : {}),
  };
}

/**
 * Finds the OS sandbox of this machine and checks that it works, by running `true` in a sandbox
 * with the same flags every sandboxed command gets. Linux: bubblewrap (`HANKWEAVE_BWRAP_PATH`,
 * else `bwrap` on `PATH`). Other platforms have none in this version (macOS's sandbox-exec is not
 * implemented). The result for one executable is kept for the life of the process (the probe
 * takes a few milliseconds, but every codon asks).
 */
export function detectSandbox(options: DetectSandboxOptions = {}): Promise<SandboxAvailability> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  if (platform !== 'linux') {
    return Promise.resolve({
      available: false,
      reason: `this version has no sandbox for ${platform} (only Linux, with bubblewrap)`,
      hint: 'run hankweave on Linux with bubblewrap for containment, or pass --no-sandbox to run without it',
    });
  }
  const path = env[BUBBLEWRAP_PATH_ENV] || executableOnPath('bwrap', env);
  if (path === undefined) {
    return Promise.resolve({
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
      hint: SANDBOX_INSTALL_HINT,
    });
  }
  let probed = options.fresh ? undefined : probes.get(path);
  if (!probed) {
    probed = probe(path);
    probes.set(path, probed);
  }
  return probed;
}
