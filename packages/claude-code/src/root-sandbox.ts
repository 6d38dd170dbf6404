import { HarnessError } from '@hankweave/harness';

const FALSE_VALUES = new Set(['', '0', 'false', 'no', 'off']);

/** Whether an environment flag is set (`1`, `true`, `yes`, …). */
export function isEnvFlagSet(value: string | undefined): boolean {
  return value !== undefined && !FALSE_VALUES.has(value.trim().toLowerCase());
}

/**
 * Claude Code refuses `--dangerously-skip-permissions` as root unless `IS_SANDBOX=1`. As root, sets
 * `IS_SANDBOX=1` in `env` when allowed: `allowRootSandbox`, or when it is not given, `IS_SANDBOX`
 * already set in the caller's or the codon's environment. Does nothing when not root.
 * @throws {HarnessError} HARNESS_ROOT_NOT_ALLOWED as root without that permission.
 */
export function applyRootSandbox(
  env: Record<string, string>,
  options: {
    isRoot: boolean;
    allowRootSandbox: boolean | undefined;
    baseEnv: Readonly<Record<string, string | undefined>>;
  },
): void {
  if (!options.isRoot) return;
  const allowed =
    options.allowRootSandbox ??
    (isEnvFlagSet(options.baseEnv.IS_SANDBOX) || isEnvFlagSet(env.IS_SANDBOX));
  if (!allowed) {
    throw new HarnessError(
      'HARNESS_ROOT_NOT_ALLOWED',
      'Running as root: Claude Code refuses to bypass permissions as root unless IS_SANDBOX=1. Run as a non-root user, or, inside a container or VM you trust, set IS_SANDBOX=1 in the environment or pass allowRootSandbox: true to the harness.',
    );
  }
  env.IS_SANDBOX = '1';
}

/** True when this process runs as root (never on Windows). */
export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}
