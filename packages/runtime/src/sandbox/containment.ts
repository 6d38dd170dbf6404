import { detectSandbox } from '@hankweave/harness';
import { RuntimeError } from '../errors.js';

/**
 * Whether processes started for a hank run in the OS sandbox: `auto` (default) uses it when this
 * machine has one and says at start when it has not; `require` refuses to run without it
 * (`--require-sandbox`); `off` turns it off (`--no-sandbox`).
 */
export type SandboxMode = 'auto' | 'require' | 'off';

/** The modes, for option checks. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'require', 'off'];

/** The containment a run has: the sandbox, or none and why. */
export type Containment =
  | { sandbox: 'bubblewrap'; bubblewrap: string; version?: string }
  | {
      sandbox: 'none';
      /** Why there is none (turned off, not installed, user namespaces disabled, not Linux). */
      reason: string;
      /** What to do about it; absent when it was turned off on purpose. */
      hint?: string;
    };

/**
 * Decides the containment of a run before anything is created: finds and probes the sandbox
 * (once per process, see `detectSandbox`) unless `mode` is `off`.
 *
 * @throws {RuntimeError} RUNTIME_SANDBOX_UNAVAILABLE with `require` when there is none.
 */
export async function resolveContainment(
  mode: SandboxMode,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Containment> {
  if (mode === 'off') return { sandbox: 'none', reason: 'turned off (--no-sandbox)' };
  const found = await detectSandbox({ env });
  if (found.available) {
    return {
      sandbox: 'bubblewrap',
      bubblewrap: found.path,
      ...(found.version !== undefined && { version: found.version }),
    };
  }
  if (mode === 'require') {
    throw new RuntimeError(
      'RUNTIME_SANDBOX_UNAVAILABLE',
      `No OS sandbox: ${found.reason}. --require-sandbox (sandbox: "require") refuses to run a hank without one; ${found.hint}, or drop --require-sandbox to run with Claude Code's deny rules and the data guard only`,
      { details: { reason: found.reason, hint: found.hint } },
    );
  }
  return { sandbox: 'none', reason: found.reason, hint: found.hint };
}

/** One line for people: what contains this run. */
export function describeContainment(containment: Containment): string {
  if (containment.sandbox === 'bubblewrap') {
    return `bubblewrap${containment.version ? ` ${containment.version}` : ''} (agents, rig and beforeCopy commands write only agentRoot, a private /tmp and their own config; the data and everything else read-only; nothing outlives its codon)`;
  }
  return `none: ${containment.reason}${containment.hint ? ` (${containment.hint})` : ''}; only Claude Code's deny rules and the data guard`;
}

/** What `execution-meta.json` records of it (no local paths). */
export function containmentRecord(
  containment: Containment,
  at: string,
): { sandbox: string; version?: string; reason?: string; at: string } {
  return containment.sandbox === 'bubblewrap'
    ? {
        sandbox: 'bubblewrap',
        ...(containment.version !== undefined && { version: containment.version }),
        at,
      }
    : { sandbox: 'none', reason: containment.reason, at };
}
