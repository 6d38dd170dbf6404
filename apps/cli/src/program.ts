import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import * as checkpoints from './commands/checkpoints.js';
import * as cleanup from './commands/cleanup.js';
import type { CommandContext, RegisterCommand } from './commands/command-context.js';
import * as complete from './commands/complete.js';
import * as completion from './commands/completion.js';
import * as diff from './commands/diff.js';
import * as events from './commands/events.js';
import * as guessedCommands from './commands/guessed-commands.js';
import * as init from './commands/init.js';
import * as jobs from './commands/jobs.js';
import * as kill from './commands/kill.js';
import * as prune from './commands/prune.js';
import * as rollback from './commands/rollback.js';
import * as run from './commands/run.js';
import * as sessions from './commands/sessions.js';
import * as status from './commands/status.js';
import * as submit from './commands/submit.js';
import * as ui from './commands/ui.js';
import * as validate from './commands/validate.js';
import * as worker from './commands/worker.js';
import { commandHint } from './output/command-hint.js';
import type { Terminal } from './output/terminal.js';

/**
 * The subcommands, in the order `--help` lists them. Each module's `register` declares its
 * command's flags, help and action (`src/commands/<name>.ts`).
 */
const COMMANDS: readonly { register: RegisterCommand }[] = [
  validate,
  init,
  status,
  events,
  checkpoints,
  diff,
  rollback,
  cleanup,
  sessions,
  kill,
  prune,
  ui,
  submit,
  worker,
  jobs,
  guessedCommands,
  completion,
  complete,
];

/**
 * The `hankweave` command line: the global options, the run command (the program itself), then
 * every subcommand. Each action stores its exit code through `done`; errors are thrown to
 * `main`, which prints them.
 */
export function buildProgram(
  terminal: Terminal,
  version: string,
  done: (code: number) => void,
): CommandUnknownOpts {
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
  for (const command of COMMANDS) command.register(program, context);
  return program;
}
