import { CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { CliError } from './output/cli-error.js';
import { commandHint } from './output/command-hint.js';
import { BUG_HINT } from './output/error-hints.js';
import { describeFsError } from './output/fs-error-hint.js';
import { debugEnabled, reportError } from './output/report-error.js';
import { createTerminal, type Terminal } from './output/terminal.js';
import { buildProgram } from './program.js';
import { cliVersion } from './version.js';

/**
 * Runs the CLI and resolves with the process exit code (reference §2.6): the run's own code,
 * 1 for usage, validation and startup errors, 0 for --help and --version. Never exits itself.
 */
export async function main(
  argv: string[] = process.argv,
  terminal: Terminal = createTerminal(),
): Promise<number> {
  let code = 0;
  const program = await buildProgram(
    terminal,
    cliVersion(),
    (result) => {
      code = result;
    },
    argv.slice(2),
  );
  const usage: { command?: CommandUnknownOpts } = {};
  routeUsageErrors(program, usage);
  try {
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      return reportError(terminal, usageError(error, usage.command ?? program));
    }
    return reportError(terminal, error);
  }
}

/**
 * Commander prints its own usage errors (`error: unknown option`) and no next step. Here they are
 * only recorded, with the command they belong to, and `main` reports them like every other error:
 * `Error: ...`, then a `→` line naming the help of that command.
 */
function routeUsageErrors(
  command: CommandUnknownOpts,
  usage: { command?: CommandUnknownOpts },
): void {
  command.configureOutput({
    outputError: () => {
      usage.command = command;
    },
  });
  command.showHelpAfterError(false);
  for (const sub of command.commands) routeUsageErrors(sub, usage);
}

/** The words of `command` after the program name: `['events']` for `hankweave events`. */
function commandPath(command: CommandUnknownOpts): string[] {
  const words: string[] = [];
  for (
    let current: CommandUnknownOpts | null = command;
    current?.parent;
    current = current.parent
  ) {
    words.unshift(current.name());
  }
  return words;
}

/** A commander usage error as a {@link CliError} whose hint is the help of its command. */
function usageError(error: CommanderError, command: CommandUnknownOpts): CliError {
  const help = `\`${commandHint(...commandPath(command), '--help')}\``;
  // `commander.help` with a non-zero code: the help itself was the message (a missing subcommand).
  if (error.code === 'commander.help') {
    return new CliError('CLI_USAGE', 'A subcommand is missing', `Run ${help} for the subcommands.`);
  }
  return new CliError(
    'CLI_USAGE',
    error.message.replace(/^error: /, '').replaceAll('\n', ' '),
    `Run ${help} for the arguments and options.`,
  );
}

/**
 * Process-wide guards: an unexpected error is reported without a stack trace (unless debugging).
 * A stray rejection does not end the run; it is said once, with its next step like any error: a
 * file-system failure in words (a full disk is not a bug), anything else as the bug it is.
 */
export function installProcessGuards(terminal: Terminal): void {
  process.on('unhandledRejection', (reason) => {
    const fs = describeFsError(reason);
    const message = fs?.message ?? (reason instanceof Error ? reason.message : String(reason));
    terminal.err(terminal.style.yellow(`! Unexpected error: ${message}`));
    if (debugEnabled() && reason instanceof Error) terminal.err(reason.stack ?? '');
    terminal.err(`${terminal.style.dim('→')} ${fs?.hint ?? BUG_HINT}`);
  });
  process.on('uncaughtException', (error) => {
    reportError(terminal, error);
    process.exit(1);
  });
}
