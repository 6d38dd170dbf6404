import { mkdirSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isMissing } from '@hankweave/durable-io';
import { HarnessError } from '../errors.js';
import {
  bubblewrapArgs,
  isSameOrUnder,
  SANDBOX_TMP,
  type SandboxMount,
} from './bubblewrap-args.js';
import type { CommandLine, SandboxedCommandLine, SandboxPolicy } from './sandbox-policy.js';

/** The real path of an existing path, or undefined when it does not exist. */
function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function absolute(path: string, field: string): string {
  if (!isAbsolute(path)) {
    throw new HarnessError(
      'HARNESS_INVALID_OPTIONS',
      `sandbox.${field} must hold absolute paths; got "${path}"`,
      { details: { field, path } },
    );
  }
  return resolve(path);
}

/**
 * Turns a command into the same command inside a bubblewrap sandbox with `policy`: writable
 * directories are created when missing, every path is resolved to its real path (a symlinked data
 * directory is protected where its files really are), and `TMPDIR` points at the private `/tmp`.
 *
 * @throws {HarnessError} HARNESS_INVALID_OPTIONS for a relative path in the policy;
 *   HARNESS_SPAWN_FAILED when a writable directory cannot be created.
 */
export function sandboxCommand(policy: SandboxPolicy, line: CommandLine): SandboxedCommandLine {
  const mounts: SandboxMount[] = [];
  const writable = policy.writable.map((path) => absolute(path, 'writable'));
  for (const path of writable) {
    try {
      mkdirSync(path, { recursive: true });
    } catch (cause) {
      throw new HarnessError(
        'HARNESS_SPAWN_FAILED',
        `Cannot create the sandbox's writable directory ${path}: ${(cause as Error).message}`,
        { cause, details: { path } },
      );
    }
    const real = realPathOf(path);
    if (real !== undefined) mounts.push({ path: real, mode: 'rw' });
  }
  const writableReal = mounts.map((mount) => mount.path);
  const underTmp = (path: string) => isSameOrUnder(SANDBOX_TMP, path);
  for (const path of policy.readOnly ?? []) {
    const real = realPathOf(absolute(path, 'readOnly'));
    if (real === undefined) continue;
    // Outside every writable path and outside /tmp it is read-only already (the root is).
    if (underTmp(real) || writableReal.some((root) => isSameOrUnder(root, real)))
      mounts.push({ path: real, mode: 'ro' });
  }
  const cwd = absolute(line.cwd, 'cwd');
  for (const path of [...(policy.readable ?? []), cwd, line.command]) {
    if (!isAbsolute(path)) continue; // a bare command name is found on PATH, outside /tmp
    const real = realPathOf(path);
    if (real !== undefined && underTmp(real) && real !== SANDBOX_TMP)
      mounts.push({ path: real, mode: 'visible' });
  }
  return {
    command: policy.bubblewrap,
    args: bubblewrapArgs({
      mounts,
      network: policy.network ?? 'host',
      cwd: realPathOf(cwd) ?? cwd,
      command: line.command,
      args: line.args,
    }),
    env: { ...line.env, TMPDIR: SANDBOX_TMP },
  };
}
