import { resolve } from 'node:path';
import { sessionsErrorHint } from '@hankweave/inspection';
import { defaultExecutionBaseDir } from '@hankweave/runtime/layout';
import { parseDuration, type SessionStatus, SessionsError } from '@hankweave/sessions';
import { CliError } from '../output/cli-error.js';
import { SESSION_STATUSES } from './session-statuses.js';

/** The project directory of the session commands: `--base`, or the managed executions dir. */
export function sessionsBaseDir(
  base: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return resolve(base ?? defaultExecutionBaseDir(env));
}

/**
 * `--status running,killed` (comma-separated, repeatable) as a checked list of `allowed` (by
 * default the session statuses; `what` names one in the error).
 */
export function parseStatusList<Status extends string = SessionStatus>(
  values: readonly string[] | string | undefined,
  allowed: readonly Status[] = SESSION_STATUSES as readonly string[] as readonly Status[],
  what = 'session status',
): Status[] | undefined {
  if (values === undefined) return undefined;
  const parts = (Array.isArray(values) ? values : [values])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const unknown = parts.filter((part) => !allowed.includes(part as Status));
  if (unknown.length > 0 || parts.length === 0) {
    throw new CliError(
      'CLI_USAGE',
      `--status: ${unknown.length > 0 ? `"${unknown.join('", "')}" is not a ${what}` : 'no status given'}`,
      `Use one or more of ${allowed.join(', ')}, comma-separated: --status ${allowed.slice(1, 3).join(',')}`,
    );
  }
  return [...new Set(parts)] as Status[];
}

/** A duration flag (`7d`, `12h`, `30m`, `45s`, `2w`) in milliseconds. */
export function parseDurationOption(flag: string, text: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    if (!SessionsError.is(error)) throw error;
    throw new CliError(
      'CLI_USAGE',
      `${flag}: "${text}" is not a duration`,
      `Write a number and a unit: ${flag} 7d (also w, h, m, s: 2w, 12h, 30m, 45s).`,
    );
  }
}

/** Reports a registry that is not JSON (or any sessions error) as what to do about it. */
export function asSessionsCliError(error: unknown): unknown {
  const hint = sessionsErrorHint(error);
  if (hint === undefined) return error;
  return new CliError('CLI_FAILED', error instanceof Error ? error.message : String(error), hint);
}
