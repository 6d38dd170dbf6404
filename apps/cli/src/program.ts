import { existsSync } from 'node:fs';
import { EVENT_TYPES } from '@hankweave/types';
import { Argument, Command, Option } from 'commander';
import { attachCommand } from './commands/attach.js';
import { checkpointsCommand } from './commands/checkpoints.js';
import { cleanupCommand } from './commands/cleanup.js';
import { COMPLETION_SHELLS, completionCommand } from './commands/completion.js';
import { diffCommand } from './commands/diff.js';
import { eventsCommand } from './commands/events.js';
import { initCommand } from './commands/init.js';
import { killCommand } from './commands/kill.js';
import { pruneCommand } from './commands/prune.js';
import { rollbackCommand } from './commands/rollback.js';
import { type RunOptions, runCommand } from './commands/run.js';
import { sessionsCommand } from './commands/sessions.js';
import { statusCommand } from './commands/status.js';
import { uiCommand } from './commands/ui.js';
import { validateCommand } from './commands/validate.js';
import { dynamicValues } from './completion/dynamic-values.js';
import { completeWith, DYNAMIC_VALUES, type DynamicValues } from './completion/value-sources.js';
import { CliError } from './output/cli-error.js';
import { closestCommand, commandHint } from './output/command-hint.js';
import type { Terminal } from './output/terminal.js';
import { registerQueueCommands } from './queue/register-queue-commands.js';
import { SESSION_STATUSES } from './sessions/session-options.js';
import { interactiveStart } from './start/interactive-start.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** What `events --type` takes: every event type, and each family as a prefix (`codon.*`). */
const EVENT_TYPE_WORDS = [
  ...EVENT_TYPES,
  ...new Set(EVENT_TYPES.map((type) => `${type.split('.')[0]}.*`)),
];

/** The help's examples, written the way the CLI was started (`pnpm hankweave` from the root). */
function epilog(): string {
  const examples: [string, string][] = [
    ['', 'on a terminal: an interactive start (pick or create a hank, then run it)'],
    ['init my-hank', 'scaffold a sample hank'],
    ['my-hank --scripted-model my-hank/model-script.json', 'run it offline (dry run)'],
    ['hank.json ./data', 'run a hank on a data directory'],
    ['--execution <dir>', 'resume an execution'],
    ['status -e <dir>', 'inspect it (also: events, checkpoints, diff)'],
    ['rollback summarize -e <dir>', "restore the files of a codon's checkpoint"],
    ['cleanup -e <dir>', 'reset an execution (shows what it removes first)'],
    ['completion bash', 'shell completion (bash, zsh, fish)'],
  ];
  const lines = examples.map(
    ([words, what]) => [words === '' ? commandHint() : commandHint(words), what] as const,
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

Environment: HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR (where managed executions live, default
~/.hankweave-executions), NO_COLOR / FORCE_COLOR, HANKWEAVE_DEBUG=1 (stack traces),
HANKWEAVE_CLAUDE_PATH (the claude executable), ANTHROPIC_API_KEY (real runs).`;
}

/** Options every command that works on an existing execution takes. */
function executionOptions(command: Command): Command {
  return command
    .option('-e, --execution <dir>', 'the execution directory (default: the newest one for --data)')
    .option(
      '--data <path>',
      'find the newest execution created for this data (default: the current directory)',
    );
}

/**
 * The `hankweave` command line. Each action stores its exit code through `done`; errors are
 * thrown to `main`, which prints them.
 */
export function buildProgram(
  terminal: Terminal,
  version: string,
  done: (code: number) => void,
): Command {
  const program = new Command('hankweave')
    .description(
      'Run hanks (programs of coding-agent codons) with a live view, checkpoints, inspection and rollback.',
    )
    .version(version, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .enablePositionalOptions()
    .showSuggestionAfterError()
    .showHelpAfterError(`(run ${commandHint('--help')} for the options)`)
    .exitOverride()
    .argument('[hank]', 'hank.json, or a directory holding one')
    .argument(
      '[data]',
      'the data the agents read, a file or directory, or - for stdin (default: --data, the hank directory, or the current directory)',
    )
    .option('--data <path>', 'the data source (same as the second argument)')
    .option(
      '-i, --input <text>',
      'inline text as the data (stored once by content: the same text resumes)',
    )
    .option(
      '-e, --execution <dir>',
      'use this execution directory (create it, or resume it; alone, resumes with its recorded hank and data)',
    )
    .option(
      '-n, --start-new',
      'always create a new execution instead of resuming the newest one for the data',
    )
    .option('--copy', 'copy the data into the execution instead of linking it')
    .option('--headless', 'no live view and no prompts: plain progress lines')
    .option('-v, --validate', 'validate the hank and exit (creates nothing)')
    .option('-m, --model <id>', 'use this model for every codon')
    .option(
      '--no-autostart',
      'wait for keys/stdin lines: n (next codon), r (roll back to last success), q (quit)',
    )
    .option(
      '--no-preflight',
      'skip the checks before a run (credentials, the API reachable): for credentials hankweave cannot see',
    )
    .option('-y, --yes', 'answer yes to confirmations')
    .option(
      '-f, --force',
      'allow dangerous operations: back up and replace an existing .hankweave with --start-new, relink changed data',
    )
    .option('--no-wipe', 'with --start-new --force on an execution directory, keep agentRoot/')
    .option(
      '--scripted-model <script.json>',
      'dry run: answer the agent from a scripted model (offline; see below)',
    )
    .option('--anthropic-base-url <url>', 'send the agent to another Messages API endpoint')
    .option('--json', 'print every event as one NDJSON line on stdout (diagnostics go to stderr)')
    .option(
      '--shim-idle-timeout <seconds>',
      'stop an agent that is silent this long (1-1800, default 180)',
    )
    .option('--ignore-rig-failures', 'treat every rig setup failure as allowFailure')
    .option(
      '--require-sandbox',
      'refuse to run without the OS sandbox (bubblewrap) around agents and commands',
    )
    .option(
      '--no-sandbox',
      "run agents and commands without the OS sandbox (only Claude Code's deny rules and the data guard)",
    )
    .option('-o, --output <dir>', "copy completed codons' outputFiles into this directory")
    .option(
      '--overwrite-output',
      'overwrite output files of the same name (default: rename to name_<counter>_<timestamp>.ext)',
    )
    .option(
      '--replay <execution-dir>',
      'replay a recorded execution: its agent logs, no agent, no model, into a new execution',
    )
    .option('--max-cost <usd>', 'a dollar ceiling for the whole hank (> 0; replaces its budget)')
    .option('--max-time <seconds>', 'a time ceiling for the whole hank (> 0; replaces its budget)')
    .option(
      '-p, --port <port>',
      'also serve the WebSocket protocol on 127.0.0.1 (0 = any free port; the token is in runtime.lock)',
    )
    .option('--attach', 'watch a running execution (-e or --data) read-only from another terminal')
    .addHelpText('after', epilog)
    .action(
      async (
        hank: string | undefined,
        data: string | undefined,
        options: RunOptions & { attach?: boolean },
      ) => {
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
        if (hank !== undefined) refuseMistypedCommand(program, hank);
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
              `→ No hank.json here. On a terminal, a bare \`${commandHint()}\` starts an interactive start; or scaffold a sample hank with \`${commandHint('init', 'my-hank')}\`.`,
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
      },
    );

  program
    .command('validate')
    .description('validate a hank: structure, warnings, errors (creates nothing)')
    .argument('<hank>', 'hank.json, or a directory holding one')
    .option('--json', 'print the result as JSON')
    .option('-v, --verbose', 'also list each runtime setting, its value and where it came from')
    .option('-o, --output <dir>', 'the output directory a run would use (warns when not empty)')
    .action((hank: string, options: { json?: boolean; verbose?: boolean; output?: string }) =>
      done(
        validateCommand(terminal, hank, {
          ...options,
          ...(options.output !== undefined ? { flags: { output: options.output } } : {}),
        }),
      ),
    );

  program
    .command('init')
    .description('scaffold a sample hank (prompts, data, model script) that runs offline at once')
    .argument('[dir]', 'where to create it (default: the current directory, which must be empty)')
    .option('-f, --force', 'write into a non-empty directory')
    .action((dir: string | undefined, options: { force?: boolean }) =>
      done(initCommand(terminal, dir, options)),
    );

  executionOptions(
    program
      .command('status')
      .description('where an execution is, whether it runs, its runs, codons and cost'),
  )
    .option('--json', 'print as JSON')
    .action(async (options) => done(await statusCommand(terminal, options)));

  executionOptions(
    program
      .command('events')
      .description('the event journal: the last events, filtered; --follow for new ones'),
  )
    .option('-n, --tail <count>', 'how many events to show ("all" or 0 for every event)', '20')
    .option('-f, --follow', 'keep printing new events until Ctrl-C')
    .addOption(
      completeWith(
        new Option(
          '-t, --type <type>',
          'only this event type (repeatable, comma-separated, `codon.*` for a prefix)',
        ).argParser(collect),
        EVENT_TYPE_WORDS,
      ),
    )
    .addOption(
      completeWith(
        new Option(
          '-c, --codon <id>',
          'only events of this codon (a loop codon id matches every iteration)',
        ).argParser(collect),
        'codons',
      ),
    )
    .option('--json', 'print raw NDJSON events')
    .action(async (options) => {
      const abort = new AbortController();
      const stop = () => abort.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        done(await eventsCommand(terminal, options, abort.signal));
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });

  executionOptions(
    program
      .command('checkpoints')
      .description('every checkpoint (type, codon, run, branch, sha, time), newest first'),
  )
    .addOption(completeWith(new Option('--codon <id>', 'only checkpoints of this codon'), 'codons'))
    .addOption(completeWith(new Option('--run <runId>', 'only checkpoints of this run'), 'runs'))
    .addOption(
      new Option('--type <type>', 'only checkpoints of this type').choices([
        'rig-setup',
        'completed',
        'error',
        'skipped',
        'exit',
      ]),
    )
    .option('--json', 'print one JSON object per checkpoint')
    .action(async (options) => done(await checkpointsCommand(terminal, options)));

  executionOptions(
    program
      .command('diff')
      .description('what changed between two checkpoints (or in one, against its parent)'),
  )
    .addArgument(
      completeWith(
        new Argument(
          '<a>',
          'a checkpoint: sha, codon, or codon:type (type: rig-setup, completed, error, skipped, start, end)',
        ),
        'codons',
      ),
    )
    .addArgument(
      completeWith(
        new Argument('[b]', 'a second checkpoint (default: compare <a> with its parent)'),
        'codons',
      ),
    )
    .option('--name-only', 'only the name-status list, no patch')
    .option('--path <path>', 'only this file or directory (repeatable)', collect)
    .option('--json', 'print as JSON')
    .action(async (a: string, b: string | undefined, options) =>
      done(await diffCommand(terminal, a, b, options)),
    );

  executionOptions(
    program
      .command('rollback')
      .description(
        'restore a checkpoint on a stopped execution; the next run continues from there',
      ),
  )
    .addArgument(
      completeWith(
        new Argument(
          '<target>',
          'last-success, a codon or codon:type (default type: end), or a checkpoint sha',
        ),
        'targets',
      ),
    )
    .option('-f, --force', 'relink the data source if it changed since the execution was created')
    .option('--json', 'print the rollback events as NDJSON')
    .action(async (target: string, options) =>
      done(await rollbackCommand(terminal, target, options)),
    );

  executionOptions(
    program
      .command('cleanup')
      .description(
        'reset an execution: remove what hankweave created in it (checkpoints, rig copies, state) after a preview',
      ),
  )
    .option('-y, --yes', 'remove without asking')
    .option('--dry-run', 'only show what would be removed and kept, and what cannot be undone')
    .option('--json', 'print the plan (and what was removed) as JSON; needs --yes or --dry-run')
    .addHelpText(
      'after',
      `
Removes only what hankweave created in the execution: .hankweave/ (state, events, checkpoints,
agent logs), rigArchive/, the link to the data (never the data), the rig copies of the codons
that ran, and the files of its checkpoints written during the execution. It never follows a
symlink out of the execution. Commands that ran (rig commands, the agents' shell commands)
cannot be undone; the preview lists them.`,
    )
    .action(async (options) => done(await cleanupCommand(terminal, options)));

  program
    .command('sessions')
    .alias('ls')
    .description(
      'every run of the executions directory (running, completed, killed), newest first; --check finds zombies',
    )
    .option('--json', 'print an array of session summaries (with the raw registry entry)')
    .addOption(
      completeWith(
        new Option(
          '--status <list>',
          'only these statuses: running, completed, killed, unknown_termination (comma-separated)',
        ).argParser(collect),
        SESSION_STATUSES,
      ),
    )
    .option('--all', 'every entry (default: running sessions and those started in the last 7 days)')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)')
    .option(
      '--postgres <url>',
      'the executions of a fleet instead, as its workers (--postgres) copied them there',
    )
    .option(
      '--check',
      'report orphaned state files, zombies (fixed), stale sessions and stale locks; exit 1 if any is left',
    )
    .option('-y, --yes', 'with --check: kill sessions running for more than 8 hours without asking')
    .action(async (options) => done(await sessionsCommand(terminal, options)));

  program
    .command('kill')
    .description(
      'stop a running session from another terminal: SIGTERM, then SIGKILL after --grace',
    )
    .addArgument(
      completeWith(
        new Argument(
          '<session>',
          'a session key, the key without pipeline-/loop-, or a unique start of it',
        ),
        'sessions',
      ),
    )
    .option('--grace <duration>', 'how long SIGTERM may take before SIGKILL (10s, 1m, ...)', '10s')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)')
    .option('--json', 'print the outcome as JSON')
    .action(async (session: string, options) =>
      done(await killCommand(terminal, session, options)),
    );

  program
    .command('prune')
    .description(
      'remove sessions that ended long ago (and with --executions their execution directories)',
    )
    .option('--older-than <duration>', 'only sessions that ended more than this long ago', '7d')
    .addOption(
      completeWith(
        new Option(
          '--status <list>',
          'only these statuses (default completed,killed; running is never pruned)',
        ).argParser(collect),
        SESSION_STATUSES,
      ),
    )
    .option(
      '--executions',
      'also remove the execution directories, their .hankweave.backup-* folders and dry-run agent config dirs',
    )
    .option('--dry-run', 'print what would be removed and freed; remove nothing')
    .option('--json', 'print the result as JSON (exact bytes)')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)')
    .action(async (options) => done(await pruneCommand(terminal, options)));

  program
    .command('ui')
    .description(
      'a local web dashboard of the executions: runs, codon timeline, costs, checkpoints, live events',
    )
    .option('-p, --port <port>', 'the port (default 0: any free port)')
    .option('--host <address>', 'the address to listen on (default 127.0.0.1)')
    .option('--allow-remote', 'allow a --host that is not loopback (the token is still required)')
    .option('--open', 'open the dashboard in the browser')
    .option('--write', 'allow actions: rollback, skip, force-stop and next')
    .option('--base <dir>', 'the executions directory (default: the managed executions directory)')
    .option(
      '--postgres <url>',
      "also list a fleet's executions, as its workers (--postgres) copied them to this database",
    )
    .option('--json', 'print {url, port, token} as one JSON line')
    .action(async (options) => done(await uiCommand(terminal, options)));

  registerQueueCommands(program, terminal, done);

  // `list` and `executions` are what people try first; without these they would be read as a
  // hank named "list". Hidden: they only point at the real command.
  for (const name of ['list', 'executions']) {
    program
      .command(name, { hidden: true })
      .argument('[args...]')
      .allowUnknownOption()
      .action(() => {
        throw new CliError(
          'CLI_USAGE',
          `\`hankweave ${name}\` is not a command`,
          `List the runs with \`${commandHint('sessions')}\` (alias \`ls\`); to run a hank in a directory called ${name}, write \`${commandHint(`./${name}`)}\`.`,
        );
      });
  }

  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for hankweave')
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      `
Load it:  source <(hankweave completion bash)      (add the line to ~/.bashrc)
          source <(hankweave completion zsh)       (add the line to ~/.zshrc)
          hankweave completion fish > ~/.config/fish/completions/hankweave.fish`,
    )
    .action((shell: string) => done(completionCommand(terminal, program, shell)));

  // What the completion scripts call for values that depend on the executions here: codon ids,
  // run ids, session keys (one per line; the words typed so far after `--`). Hidden.
  program
    .command('__complete', { hidden: true })
    .addArgument(new Argument('<kind>').choices(DYNAMIC_VALUES))
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action((kind: DynamicValues, words: string[] = []) => {
      for (const value of dynamicValues(kind, words)) terminal.out(value);
      done(0);
    });

  return program;
}

/** True when no option of `command` was given (each has its default value, or none). */
function onlyDefaults(command: Command): boolean {
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
function refuseMistypedCommand(program: Command, word: string): void {
  if (existsSync(word)) return;
  const names = program.commands
    .filter((command) => !['list', 'executions', '__complete'].includes(command.name()))
    .flatMap((command) => [command.name(), ...command.aliases()]);
  const meant = closestCommand(word, names);
  if (!meant) return;
  throw new CliError(
    'CLI_USAGE',
    `\`${word}\` is not a command, and no file or directory ${word} exists`,
    `Did you mean \`${commandHint(meant)}\`? (\`${commandHint('--help')}\` lists the commands.)`,
  );
}
