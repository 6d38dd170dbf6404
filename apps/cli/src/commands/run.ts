import { resolve } from 'node:path';
import {
  createRuntime,
  describeContainment,
  executionLayout,
  loadHank,
  type Runtime,
  runtimeOptionsOf,
  type ShutdownReason,
} from '@hankweave/runtime';
import { type HankweaveServer, startWebSocketServer } from '@hankweave/server';
import { CliError } from '../output/cli-error.js';
import { shellArg } from '../output/command-hint.js';
import { LiveView } from '../output/live-view.js';
import { positiveNumberFlag } from '../output/number-flags.js';
import { JsonView, PlainView, type RunView } from '../output/run-view.js';
import { printSummary } from '../output/summary.js';
import type { Terminal } from '../output/terminal.js';
import { askYesNo } from '../run/confirm.js';
import { type DryRun, startDryRun } from '../run/dry-run.js';
import { checkDryRunModels } from '../run/dry-run-models.js';
import { attachIdleControls, IDLE_KEYS } from '../run/idle-controls.js';
import { inlineData } from '../run/input-data.js';
import { resolveRunInputs } from '../run/run-inputs.js';
import { printRuntimeConfigWarnings, resolveCliRuntimeConfig } from '../run/runtime-config.js';
import { reportUnanswered } from '../run/unanswered-requests.js';
import { cliVersion } from '../version.js';
import { readHankJson } from './load-hank.js';
import { validateCommand } from './validate.js';

/** Flags of the run form (reference §2.2, the ones that apply to this CLI). */
export interface RunOptions {
  data?: string;
  execution?: string;
  copy?: boolean;
  startNew?: boolean;
  headless?: boolean;
  validate?: boolean;
  model?: string;
  autostart?: boolean;
  /** `--no-preflight` sets it false. */
  preflight?: boolean;
  yes?: boolean;
  force?: boolean;
  wipe?: boolean;
  scriptedModel?: string;
  anthropicBaseUrl?: string;
  json?: boolean;
  shimIdleTimeout?: string;
  port?: string;
  ignoreRigFailures?: boolean;
  /** `--no-sandbox` sets it false. */
  sandbox?: boolean;
  requireSandbox?: boolean;
  output?: string;
  overwriteOutput?: boolean;
  /** A recorded execution to replay (reference §2.2 `--replay`). */
  replay?: string;
  maxCost?: string;
  maxTime?: string;
  /** Inline text as the data (reference §2.2 `--input`). */
  input?: string;
}

/** `hankweave <hank.json | dir> [data]`: runs a hank and shows it; returns the exit code (§2.6). */
export async function runCommand(
  terminal: Terminal,
  positionals: string[],
  options: RunOptions,
): Promise<number> {
  if (options.replay !== undefined && options.execution !== undefined) {
    throw new CliError(
      'CLI_USAGE',
      '--replay cannot be combined with --execution',
      'A replay always writes a new execution.',
    );
  }
  // A replay runs the recorded execution's hank on its data unless they are given.
  // --input and `-` (stdin) become a content-addressed data file (reference §2.3 step 8).
  const inline = await inlineData(positionals, options);
  const inputs = await resolveRunInputs(inline.positionals, {
    ...(options.replay !== undefined ? { ...options, execution: options.replay } : options),
    ...(inline.data !== undefined ? { data: inline.data } : {}),
  });
  if (options.validate)
    return validateCommand(terminal, inputs.hankPath, {
      json: options.json === true,
      flags: options,
    });
  if (options.scriptedModel && options.anthropicBaseUrl) {
    throw new CliError(
      'CLI_USAGE',
      '--scripted-model and --anthropic-base-url both set where the agent connects',
      'Pass one of them.',
    );
  }
  // Checked here for the flags' own messages; the runtime config then takes them as the top layer.
  parseSeconds(options.shimIdleTimeout, '--shim-idle-timeout', 1, 1800);
  parsePort(options.port);
  const maxCost = positiveNumberFlag(options.maxCost, '--max-cost', '--max-cost 2.50');
  const maxTime = positiveNumberFlag(options.maxTime, '--max-time', '--max-time 600');
  // Read here first, so a file that is not JSON gets the same report as `validate` gives it
  // (file:line:column, the line and a caret), then validated exactly as the runtime will.
  const { config: parsedHank } = readHankJson(inputs.hankPath);
  // defaults < hankweave.json < hank overrides < HANKWEAVE_RUNTIME_* < flags (reference §1.10).
  const runtimeConfig = resolveCliRuntimeConfig(options, parsedHank);
  const { port: configPort, ...configured } = runtimeOptionsOf(runtimeConfig);
  const hank = loadHank({
    hank: parsedHank,
    hankPath: inputs.hankPath,
    ...(configured.model ? { model: configured.model } : {}),
  });
  const autostart = configured.autostart !== false;
  const view = chooseView(terminal, options, () => runtime?.getState());
  const note = (line: string) => (options.json ? terminal.err(line) : terminal.out(line));
  const codonCount = hank.config.hank.reduce(
    (count, item) => count + ('codons' in item ? item.codons.length : 1),
    0,
  );
  note(
    `${terminal.style.bold('hankweave')} · ${hank.config.meta.name} ${hank.config.meta.version} · ${codonCount} codon(s)`,
  );

  printRuntimeConfigWarnings(note, terminal, runtimeConfig);
  for (const warning of inputs.warnings ?? []) note(terminal.style.yellow(`! ${warning}`));
  if (options.overwriteOutput && configured.outputDirectory === undefined) {
    note(terminal.style.yellow('! --overwrite-output has no effect without -o/--output'));
  }
  let dryRun: DryRun | undefined;
  let runtime: Runtime | undefined;
  if (options.scriptedModel) {
    checkDryRunModels(hank.config, configured.model);
    dryRun = await startDryRun(options.scriptedModel, inputs.dataPath);
    note(
      terminal.style.dim(
        `Dry run: the agent talks to a scripted model at ${dryRun.model.url} (offline, no API key).`,
      ),
    );
  }
  const loggedErrors = new Set<string>();
  const interactive =
    !options.headless && !options.json && process.stdin.isTTY === true && terminal.isTTY;
  runtime = createRuntime({
    hankPath: inputs.hankPath,
    dataPath: inputs.dataPath,
    ...configured,
    ...(options.execution ? { executionDir: options.execution } : {}),
    ...(options.replay !== undefined ? { replay: { executionDir: resolve(options.replay) } } : {}),
    startNew: options.startNew === true,
    force: options.force === true,
    noWipe: options.wipe === false,
    copyData: options.copy === true || inline.inline,
    ...(options.yes
      ? { confirm: () => true }
      : interactive
        ? { confirm: (question: string) => askYesNo(question) }
        : {}),
    autostart,
    ...(options.preflight === false ? { preflight: false } : {}),
    // Recorded in the session registry, so the commands printed later resume a dry run as one.
    sessionFields: {
      scripted_model: options.scriptedModel ? resolve(options.scriptedModel) : null,
    },
    // The CLI has no controls while codons run automatically: a failure that would wait for a
    // command fails the run instead (the runtime's headless mode). --no-autostart keeps waiting.
    headless: autostart || options.headless === true,
    ...(dryRun
      ? { anthropicBaseUrl: dryRun.model.url, piBaseUrl: dryRun.piBaseUrl, piRetries: false }
      : {}),
    overwriteOutput: options.overwriteOutput === true,
    ...(maxCost !== undefined ? { maxCost } : {}),
    ...(maxTime !== undefined ? { maxTime } : {}),
    env: dryRun?.env ?? process.env,
    logger: {
      warn: (message) => view.log('warn', message),
      error: (message) => {
        loggedErrors.add(message);
        view.log('error', message);
      },
    },
  });
  const active = runtime;
  active.on((event) => {
    // The runtime logs an error, then emits it as an event: show it once (NDJSON keeps every event).
    const message = event.type === 'error' ? event.data.message : undefined;
    if (message !== undefined && !options.json && loggedErrors.delete(message)) return;
    view.onEvent(event);
  });

  let started = false;
  let pending: 'SIGINT' | 'SIGTERM' | undefined;
  let signals = 0;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    signals++;
    if (!started) {
      if (signals > 1) process.exit(1);
      pending = signal;
      return;
    }
    if (signals === 1) {
      view.log(
        'warn',
        `${signal}: stopping once the agent has exited (${signal === 'SIGINT' ? 'Ctrl-C' : 'signal'} again to force)`,
      );
      void active.close({ reason: signal });
    } else {
      view.log('warn', 'Forcing shutdown');
      void active.close({ force: true });
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const startedAt = Date.now();
  let detach: (() => void) | undefined;
  try {
    await active.start();
    // The server needs an open execution; events before it listens reach clients through
    // `sendPreviousEvents` or `history.sync`. It closes itself when the runtime finishes.
    const server: HankweaveServer | undefined =
      configPort !== undefined
        ? await startWebSocketServer(active, { port: configPort, serverVersion: cliVersion() })
        : undefined;
    started = true;
    view.started(active.executionDir);
    if (server) {
      const lock = executionLayout(active.executionDir).lockFile;
      view.log('info', `WebSocket: ${server.url} (clients need the token in ${lock})`);
    }
    if (pending) void active.close({ reason: pending });
    else if (!autostart) {
      view.log('info', IDLE_KEYS);
      detach = attachIdleControls(active, view, () => onSignal('SIGINT'));
    }
    const exit = await active.finished;
    detach?.();
    detach = undefined;
    view.stop();
    printSummary(
      terminal,
      {
        hankName: hank.config.meta.name,
        state: active.getState(),
        executionDir: active.executionDir,
        exitCode: exit.exitCode,
        reason: exit.reason as ShutdownReason,
        elapsedMs: Date.now() - startedAt,
        ...(active.containment !== undefined && {
          containment: describeContainment(active.containment),
        }),
        // A dry run resumes on its script: the Resume line must carry it to work as printed.
        resumeFlags: options.scriptedModel
          ? ['--scripted-model', shellArg(resolve(options.scriptedModel))]
          : [],
      },
      view.summaryToStderr,
    );
    if (dryRun && options.scriptedModel)
      reportUnanswered(terminal, dryRun.unanswered(), resolve(options.scriptedModel));
    return exit.exitCode;
  } finally {
    detach?.();
    view.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await dryRun?.close();
  }
}

function chooseView(
  terminal: Terminal,
  options: RunOptions,
  state: () => ReturnType<Runtime['getState']> | undefined,
): RunView {
  if (options.json) return new JsonView(terminal);
  if (terminal.isTTY && !options.headless) return new LiveView(terminal, state);
  return new PlainView(terminal);
}

function parseSeconds(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < min || seconds > max) {
    throw new CliError(
      'CLI_USAGE',
      `${flag} expects whole seconds from ${min} to ${max}, got ${value}`,
      `Example: ${flag} 300`,
    );
  }
  return seconds * 1000;
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(
      'CLI_USAGE',
      `--port expects 0-65535 (0 = any free port), got ${value}`,
      'Example: --port 0',
    );
  }
  return port;
}
