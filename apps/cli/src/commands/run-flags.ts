import type { Command } from '@commander-js/extra-typings';
import type { OptionsOf } from './command-context.js';

/**
 * The root command's arguments and the flags of a run (reference §2.2, the ones that apply to
 * this CLI), added to `program`. Declared apart from `run.ts`, which adds the action: the run's
 * own modules (flag checks, runtime config, the interactive start) take the inferred
 * {@link RunOptions}, and `run.ts` imports them, so the type living there would make a cycle.
 */
export function declareRunFlags(program: Command) {
  return program
    .argument('[hank]', 'hank.json, a directory holding one, or a git URL: <url>[#ref][:subdir]')
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
    .option(
      '--self-test',
      'before the run: check that every model of the hank answers one minimal request (as `doctor` does); refuse to start when one fails',
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
    .option('--attach', 'watch a running execution (-e or --data) read-only from another terminal');
}

/** Every flag of the root command, inferred from {@link declareRunFlags}. */
export type RunFlags = OptionsOf<typeof declareRunFlags>;

/**
 * What a run takes: the run flags without `--attach` (which watches another run instead).
 * Partial: the interactive start passes only what it chose, and an absent negatable flag
 * (`--no-autostart`, `--no-sandbox`, ...) means the same as its default.
 */
export type RunOptions = Partial<Omit<RunFlags, 'attach'>>;
