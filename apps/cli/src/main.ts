import { CommanderError } from 'commander';
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
  const program = buildProgram(terminal, cliVersion(), (result) => {
    code = result;
  });
  try {
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    return reportError(terminal, error);
  }
}

/** Process-wide guards: an unexpected error is reported without a stack trace (unless debugging). */
export function installProcessGuards(terminal: Terminal): void {
  process.on('unhandledRejection', (reason) => {
    terminal.err(
      terminal.style.yellow(
        `! Unexpected internal error: ${reason instanceof Error ? reason.message : String(reason)}`,
      ),
    );
    if (debugEnabled() && reason instanceof Error) terminal.err(reason.stack ?? '');
  });
  process.on('uncaughtException', (error) => {
    reportError(terminal, error);
    process.exit(1);
  });
}
