import { existsSync } from 'node:fs';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { CliError } from '../output/cli-error.js';
import { closestCommand } from '../output/command-hint.js';
import type { CommandContext } from './command-context.js';
import { SUGGESTED_WORDS } from './command-table.js';
import { declareRunFlags } from './run-flags.js';

// The run, the attach and the interactive start load on use: `--attach` must not load the
// orchestrator, and `--version` nothing at all.
const runCommand: typeof import('../run/run-command.js').runCommand = async (...args) =>
  (await import('../run/run-command.js')).runCommand(...args);
const attachCommand: typeof import('./attach.js').attachCommand = async (...args) =>
  (await import('./attach.js')).attachCommand(...args);
const interactiveStart: typeof import('../start/interactive-start.js').interactiveStart = async (
  ...args
) => (await import('../start/interactive-start.js')).interactiveStart(...args);

/**
 * Makes `program` itself the run command: `hankweave [hank] [data]` with the run flags
 * (`run-flags.ts`) and the help's examples. Its action attaches (`--attach`), starts the
 * interactive start (a bare `hankweave` on a terminal), or runs a hank (`run/run-command.ts`).
 * Takes the root before any argument is added, so the action's arguments are inferred.
 */
export function register(program: Command, { terminal, done, hint }: CommandContext): void {
  declareRunFlags(program)
    .addHelpText('after', () => epilog(hint))
    .action(async (hank, data, options) => {
      if (options.attach) {
        done(
          await attachCommand(
            terminal,
            {
              ...(options.execution ? { execution: options.execution } : {}),
              ...(options.data ? { data: options.data } : {}),
            },
            { json: options.json === true },
          ),
        );
        return;
      }
      if (hank !== undefined) refuseMistypedCommand(hank, hint);
      // A bare `hankweave` (no argument, no flag): on a terminal, the interactive start; off
      // one, the usage, unless the current directory holds a hank to run (as it always did).
      if (hank === undefined && data === undefined && onlyDefaults(program)) {
        if (process.stdin.isTTY && terminal.isTTY) {
          const decision = await interactiveStart(terminal);
          done(
            decision.kind === 'run'
              ? await runCommand(terminal, decision.positionals, decision.options)
              : decision.code,
          );
          return;
        }
        if (!existsSync('hank.json')) {
          terminal.err(program.helpInformation());
          terminal.err(
            `→ No hank.json here. On a terminal, a bare \`${hint()}\` starts an interactive start; or scaffold a sample hank with \`${hint('init', 'my-hank')}\`.`,
          );
          done(1);
          return;
        }
      }
      done(
        await runCommand(
          terminal,
          [hank, data].filter((value): value is string => value !== undefined),
          options,
        ),
      );
    });
}

/** The help's examples, written the way the CLI was started (`pnpm hankweave` from the root). */
function epilog(hint: CommandContext['hint']): string {
  const examples: [string, string][] = [
    ['', 'on a terminal: an interactive start (pick or create a hank, then run it)'],
    ['init my-hank', 'scaffold a sample hank'],
    ['my-hank --scripted-model my-hank/model-script.json', 'run it offline (dry run)'],
    ['hank.json ./data', 'run a hank on a data directory'],
    ['https://github.com/o/r.git#main:hank ./data', 'run a hank from a git URL'],
    ['--execution <dir>', 'resume an execution'],
    ['status -e <dir>', 'inspect it (also: events, checkpoints, diff)'],
    ['rollback summarize -e <dir>', "restore the files of a codon's checkpoint"],
    ['cleanup -e <dir>', 'reset an execution (shows what it removes first)'],
    ['completion bash', 'shell completion (bash, zsh, fish)'],
  ];
  const lines = examples.map(
    ([words, what]) => [words === '' ? hint() : hint(words), what] as const,
  );
  const width = Math.max(...lines.map(([command]) => command.length)) + 3;
  return `
Examples:
${lines.map(([command, what]) => `  ${command.padEnd(width)}${what}`).join('\n')}

Dry runs: --scripted-model starts a local model that answers from a JSON script; the real Claude
Code agent runs real tools in the execution, with no network and no API key. A dry run is sandboxed
by definition, so as root it sets IS_SANDBOX=1 for the agent.

Exit codes: 0 all codons completed (or stopped by Ctrl-C/SIGTERM, --help, --version); 1 a codon
failed, the run failed, a usage or validation error, or a forced stop.

Runtime config: hankweave.json in the current directory < the hank's overrides <
HANKWEAVE_RUNTIME_<KEY> variables < flags; \`hankweave validate -v <hank>\` shows each value's source.

A hank may be a git URL: <url>[#branch|tag|commit][:subdir] (https; cached in
~/.cache/hankweave/remote, or HANKWEAVE_CACHE_DIR; branches re-resolved after
HANKWEAVE_REMOTE_TTL_SECONDS, default 600).

Environment: HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR (where managed executions live, default
~/.hankweave-executions), NO_COLOR / FORCE_COLOR, HANKWEAVE_DEBUG=1 (stack traces),
HANKWEAVE_CLAUDE_PATH (the claude executable), ANTHROPIC_API_KEY (real runs).`;
}

/** True when no option of `command` was given (each has its default value, or none). */
function onlyDefaults(command: CommandUnknownOpts): boolean {
  return command.options.every((option) => {
    const source = command.getOptionValueSource(option.attributeName());
    return source === undefined || source === 'default';
  });
}

/**
 * The first positional is a hank path, so a mistyped subcommand (`hankweave statsu`) would be
 * run as a hank named "statsu". When no such file or directory exists and the word is close to
 * a subcommand, say which one was meant instead.
 */
function refuseMistypedCommand(word: string, hint: CommandContext['hint']): void {
  if (existsSync(word)) return;
  const meant = closestCommand(word, SUGGESTED_WORDS);
  if (!meant) return;
  throw new CliError(
    'CLI_USAGE',
    `\`${word}\` is not a command, and no file or directory ${word} exists`,
    `Did you mean \`${hint(meant)}\`? (\`${hint('--help')}\` lists the commands.)`,
  );
}
