import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from './commands/command-context.js';
import { COMMAND_TABLE, commandsFor } from './commands/command-table.js';
import * as run from './commands/run.js';
import { commandHint } from './output/command-hint.js';
import type { Terminal } from './output/terminal.js';

/**
 * The `hankweave` command line: the global options, the run command (the program itself), then
 * the subcommands that `args` (the words after `hankweave`) may need, in help order: all of them
 * without `args`. Loading only those keeps `--version`, `--attach` and `status` from loading the
 * orchestrator (`commands/command-table.ts`). Each action stores its exit code through `done`;
 * errors are thrown to `main`, which prints them.
 */
export async function buildProgram(
  terminal: Terminal,
  version: string,
  done: (code: number) => void,
  args?: readonly string[],
): Promise<CommandUnknownOpts> {
  const context: CommandContext = { terminal, done, hint: commandHint };
  const program = new Command('hankweave')
    .description(
      'Run hanks (programs of coding-agent codons) with a live view, checkpoints, inspection and rollback.',
    )
    .version(version, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .enablePositionalOptions()
    .showSuggestionAfterError()
    .showHelpAfterError(`(run ${commandHint('--help')} for the options)`)
    .exitOverride();
  run.register(program, context);
  const entries = args === undefined ? COMMAND_TABLE : commandsFor(args);
  const modules = await Promise.all(entries.map((entry) => entry.load()));
  for (const command of modules) command.register(program, context);
  return program;
}
