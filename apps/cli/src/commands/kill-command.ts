import { type KillResult, killExecution, RuntimeError } from '@hankweave/runtime';
import { SessionRegistry } from '@hankweave/sessions';
import { CliError } from '../output/cli-error.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { formatDuration } from '../output/format.js';
import type { Terminal } from '../output/terminal.js';
import { resolveSessionKey } from '../sessions/resolve-session-key.js';
import { resumeFlagsOf } from '../sessions/resume-flags.js';
import {
  asSessionsCliError,
  parseDurationOption,
  sessionsBaseDir,
} from '../sessions/session-options.js';
import type { KillOptions } from './kill-flags.js';

/**
 * `hankweave kill <session>`: stops a running session's runtime (SIGTERM, then SIGKILL after the
 * grace period) and says what happened. Exit 0 once the session is no longer running (also when
 * it had ended already); 1 when it refused.
 */
export async function killCommand(
  terminal: Terminal,
  name: string,
  options: KillOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const graceMs = parseDurationOption('--grace', options.grace ?? '10s');
  const projectDir = sessionsBaseDir(options.base, env);
  try {
    const registry = new SessionRegistry(projectDir);
    const { sessions } = await registry.read();
    const key = resolveSessionKey(name, sessions, registry.file);
    const entry = sessions[key];
    const target = entry?.type === 'loop' && entry.parent ? entry.parent : key;
    if (!options.json && entry?.status === 'running') {
      terminal.err(
        terminal.style.dim(
          `Stopping ${target}${entry.pid ? ` (pid ${entry.pid})` : ''}: SIGTERM, SIGKILL after ${formatDuration(graceMs)}…`,
        ),
      );
    }
    const result = await killExecution(key, { projectDir, graceMs });
    const after = (await registry.read()).sessions[target] ?? entry;
    if (options.json) {
      terminal.out(JSON.stringify({ ...result, target, status: after?.status ?? null }));
      return 0;
    }
    const executionDir = after?.execution_dir ?? null;
    const resumeFlags = executionDir ? await resumeFlagsOf(executionDir) : [];
    printKill(terminal, result, target, after?.status, executionDir, resumeFlags);
    return 0;
  } catch (error) {
    throw asKillCliError(asSessionsCliError(error));
  }
}

function printKill(
  terminal: Terminal,
  result: KillResult,
  target: string,
  status: string | undefined,
  executionDir: string | null,
  resumeFlags: readonly string[],
): void {
  const { style } = terminal;
  const resume = executionDir
    ? `Resume it with \`${commandHint('--execution', shellArg(executionDir), ...resumeFlags)}\`.`
    : undefined;
  const via = target === result.key ? '' : ` (through its pipeline ${target})`;
  switch (result.outcome) {
    case 'stopped':
      terminal.out(
        `${style.green('Stopped')} ${result.key}${via}: pid ${result.pid} stopped ${formatDuration(result.waitedMs)} after SIGTERM; the registry says ${status ?? 'killed'}.`,
      );
      break;
    case 'forced':
      terminal.out(
        `${style.yellow('Forced')} ${result.key}${via}: pid ${result.pid} ignored SIGTERM and was killed (SIGKILL); marked ${status ?? 'killed'}.`,
      );
      terminal.out(
        `${style.dim('→')} Its last codon was cut off; \`${commandHint('status', '-e', executionDir ? shellArg(executionDir) : '<dir>')}\` shows it, and resuming recovers it.`,
      );
      return;
    case 'already-dead':
      terminal.out(
        `${result.key}${via} was not running any more: pid ${result.pid} was gone. Marked unknown_termination.`,
      );
      break;
    case 'not-running':
      terminal.out(`${result.key} is not running (status ${status ?? 'ended'}); nothing to stop.`);
      break;
  }
  if (resume) terminal.out(`${style.dim('→')} ${resume}`);
}

/** The runtime's refusals, with what to do next. */
function asKillCliError(error: unknown): unknown {
  if (!RuntimeError.is(error) || error.code !== 'RUNTIME_INVALID_OPTION') return error;
  const reason = (error.details as { reason?: string }).reason;
  const hints: Record<string, string> = {
    'pid-not-owner': `\`${commandHint('sessions', '--check')}\` marks the session if its runtime has died; \`${commandHint('status', '-e', '<execution>')}\` shows who holds the execution.`,
    'other-host': `Run \`${commandHint('kill')}\` on the machine that runs it.`,
    'no-pid': `\`${commandHint('sessions', '--check')}\` reports whether it is still alive.`,
    'not-permitted': `Run \`${commandHint('kill')}\` as the user that started the run.`,
    'unknown-session': `List the sessions with \`${commandHint('sessions', '--all')}\`.`,
  };
  const hint = reason ? hints[reason] : undefined;
  return hint && error instanceof Error ? new CliError('CLI_FAILED', error.message, hint) : error;
}
