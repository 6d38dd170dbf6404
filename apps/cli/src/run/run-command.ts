import { dirname } from 'node:path';
import { createRuntime, executionLayout, loadHank, type Runtime } from '@hankweave/runtime';
import { startWebSocketServer } from '@hankweave/server';
import { readHankJson } from '../commands/load-hank.js';
import type { RunOptions } from '../commands/run-flags.js';
import { validateCommand } from '../commands/validate.js';
import { CliError } from '../output/cli-error.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { describeHankSource } from '../output/hank-source.js';
import { LiveView } from '../output/live-view.js';
import { JsonView, PlainView, type RunView } from '../output/run-view.js';
import type { Terminal } from '../output/terminal.js';
import { type RunTelemetry, startRunTelemetry } from '../telemetry/run-telemetry.js';
import { cliVersion } from '../version.js';
import { checkPinnedHank } from './bundle-source.js';
import { type DryRun, startDryRun } from './dry-run.js';
import { checkDryRunModels } from './dry-run-models.js';
import { attachIdleControls, IDLE_KEYS } from './idle-controls.js';
import { inlineData } from './input-data.js';
import { resolveRunInputs } from './run-inputs.js';
import {
  checkRunFlags,
  createRuntimeOptions,
  refuseReplayIntoExecution,
  runSettings,
} from './run-options.js';
import { handleRunSignals } from './run-signals.js';
import { printRunSummary } from './run-summary.js';
import { printRuntimeConfigWarnings } from './runtime-config.js';
import { runSelfTest, type SelfTestInputs } from './self-test.js';

/**
 * `hankweave <hank.json | dir> [data]`: runs a hank and shows it; returns the exit code (§2.6).
 * The flags are checked and turned into runtime options in `run-options.ts`, signals are handled
 * in `run-signals.ts` and the end-of-run summary printed by `run-summary.ts`; this is the order
 * of it all: inputs, the view, the dry run's model, the runtime's start, its end.
 */
export async function runCommand(
  terminal: Terminal,
  positionals: string[],
  options: RunOptions,
): Promise<number> {
  refuseReplayIntoExecution(options);
  // A replay runs the recorded execution's hank on its data unless they are given.
  // --input and `-` (stdin) become a content-addressed data file (reference §2.3 step 8).
  const inline = await inlineData(positionals, options);
  const inputs = await resolveRunInputs(inline.positionals, {
    ...(options.replay !== undefined ? { ...options, execution: options.replay } : options),
    ...(inline.data !== undefined ? { data: inline.data } : {}),
  });
  // A hank directory (a git checkout too) pinned by its hank.lock runs only as locked; a bundle
  // was verified against its own lock already.
  if (inputs.hankSource?.kind !== 'bundle') await checkPinnedHank(dirname(inputs.hankPath));
  if (options.validate) {
    if (options.selfTest) {
      throw new CliError(
        'CLI_USAGE',
        '--self-test checks the models before a run, and --validate runs nothing',
        `Validate first, then check the models: \`${commandHint('doctor', shellArg(inputs.hankPath))}\`.`,
      );
    }
    for (const line of inputs.sourceNotes ?? []) terminal.err(terminal.style.yellow(`! ${line}`));
    return validateCommand(terminal, inputs.hankPath, {
      json: options.json,
      flags: options,
      ...(inputs.hankSource !== undefined ? { hankSource: inputs.hankSource } : {}),
    });
  }
  const limits = checkRunFlags(options);
  // Read here first, so a file that is not JSON gets the same report as `validate` gives it
  // (file:line:column, the line and a caret), then validated exactly as the runtime will.
  const { config: parsedHank } = readHankJson(inputs.hankPath);
  const settings = runSettings(options, parsedHank);
  const { configured, autostart } = settings;
  const hank = loadHank({
    hank: parsedHank,
    hankPath: inputs.hankPath,
    ...(configured.model ? { model: configured.model } : {}),
  });
  const view = chooseView(terminal, options, () => runtime?.getState());
  const note = (line: string) => (options.json ? terminal.err(line) : terminal.out(line));
  const codonCount = hank.config.hank.reduce(
    (count, item) => count + ('codons' in item ? item.codons.length : 1),
    0,
  );
  note(
    `${terminal.style.bold('hankweave')} · ${hank.config.meta.name} ${hank.config.meta.version} · ${codonCount} codon(s)`,
  );

  if (inputs.hankSource !== undefined) {
    note(terminal.style.dim(`From ${describeHankSource(inputs.hankSource)}`));
  }
  // On stderr, one line each: the remote was unreachable (the cached commit runs), or a resume
  // runs its recorded commit though the branch moved.
  for (const line of inputs.sourceNotes ?? []) terminal.err(terminal.style.yellow(`! ${line}`));
  printRuntimeConfigWarnings(note, terminal, settings.runtimeConfig);
  for (const warning of inputs.warnings ?? []) note(terminal.style.yellow(`! ${warning}`));
  for (const line of inputs.notes ?? []) note(terminal.style.dim(line));
  if (options.overwriteOutput && configured.outputDirectory === undefined) {
    note(terminal.style.yellow('! --overwrite-output has no effect without -o/--output'));
  }
  if (settings.runtimeConfig.get('selfTest') === true) {
    const passed = await selfTestBeforeRun(terminal, options, note, {
      config: hank.config,
      hankDir: hank.hankDir,
      env: process.env,
      ...(configured.anthropicBaseUrl !== undefined && {
        anthropicBaseUrl: configured.anthropicBaseUrl,
      }),
      note,
      progress: !options.json && process.stderr.isTTY === true,
    });
    if (!passed) return 1;
  }
  let dryRun: DryRun | undefined;
  let runtime: Runtime | undefined;
  // Traces and metrics over OTLP when an OTEL_EXPORTER_OTLP_*ENDPOINT is set (else not loaded);
  // a malformed endpoint stops here, before anything is started.
  const telemetry: RunTelemetry | undefined = await startRunTelemetry(process.env, {
    hankName: hank.config.meta.name,
    executionDir: () => {
      try {
        return runtime?.executionDir;
      } catch {
        return undefined;
      }
    },
  });
  if (telemetry) note(terminal.style.dim(telemetry.description));
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
  runtime = createRuntime(
    createRuntimeOptions(options, {
      inputs,
      inlineData: inline.inline,
      settings,
      limits,
      dryRun,
      canAsk: !options.headless && !options.json && process.stdin.isTTY === true && terminal.isTTY,
      logger: {
        warn: (message) => view.log('warn', message),
        error: (message) => {
          loggedErrors.add(message);
          view.log('error', message);
        },
      },
    }),
  );
  const active = runtime;
  active.on((event) => {
    telemetry?.onEvent(event);
    // The runtime logs an error, then emits it as an event: show it once (NDJSON keeps every event).
    const message = event.type === 'error' ? event.data.message : undefined;
    if (message !== undefined && !options.json && loggedErrors.delete(message)) return;
    view.onEvent(event);
  });
  let telemetryWarning: Promise<string | undefined> | undefined;
  const finishTelemetry = () => {
    telemetryWarning ??= telemetry?.finish() ?? Promise.resolve(undefined);
    return telemetryWarning;
  };

  const signals = handleRunSignals(active, view);
  const startedAt = Date.now();
  let detach: (() => void) | undefined;
  try {
    await active.start();
    // The server needs an open execution; events before it listens reach clients through
    // `sendPreviousEvents` or `history.sync`. It closes itself when the runtime finishes.
    const server =
      settings.port !== undefined
        ? await startWebSocketServer(active, { port: settings.port, serverVersion: cliVersion() })
        : undefined;
    const early = signals.started();
    view.started(active.executionDir);
    if (server) {
      const lock = executionLayout(active.executionDir).lockFile;
      view.log('info', `WebSocket: ${server.url} (clients need the token in ${lock})`);
    }
    if (early) void active.close({ reason: early });
    else if (!autostart) {
      view.log('info', IDLE_KEYS);
      detach = attachIdleControls(active, view, signals.interrupt);
    }
    const exit = await active.finished;
    detach?.();
    detach = undefined;
    view.stop();
    printRunSummary(terminal, {
      hankName: hank.config.meta.name,
      runtime: active,
      exit,
      startedAt,
      scriptedModel: options.scriptedModel,
      dryRun,
      toStderr: view.summaryToStderr,
    });
    // After the summary: the spans of the run's end go out now, bounded by a deadline.
    const warning = await finishTelemetry();
    if (warning) terminal.err(terminal.style.yellow(`! ${warning}`));
    return exit.exitCode;
  } finally {
    detach?.();
    view.stop();
    signals.dispose();
    await finishTelemetry();
    await dryRun?.close();
  }
}

/**
 * The self-test of `--self-test` or `selfTest: true`, unless the run calls no provider: a dry run
 * answers from a script and a replay from recorded logs, so the flag is refused with them and the
 * configured key is skipped with a note (never silently).
 *
 * @throws {CliError} CLI_USAGE for `--self-test` with `--scripted-model` or `--replay`.
 */
async function selfTestBeforeRun(
  terminal: Terminal,
  options: RunOptions,
  note: (line: string) => void,
  inputs: SelfTestInputs,
): Promise<boolean> {
  const offline = options.scriptedModel
    ? '--scripted-model'
    : options.replay !== undefined
      ? '--replay'
      : undefined;
  if (offline === undefined) return runSelfTest(terminal, inputs);
  if (options.selfTest) {
    throw new CliError(
      'CLI_USAGE',
      `--self-test checks the real models, and ${offline} runs without them`,
      `Drop one of the two; \`${commandHint('doctor')}\` checks the models on its own.`,
    );
  }
  note(terminal.style.dim(`Self-test skipped (selfTest is set): ${offline} calls no model.`));
  return true;
}

/** NDJSON with --json; the live view on a terminal (not --headless); else plain lines. */
function chooseView(
  terminal: Terminal,
  options: RunOptions,
  state: () => ReturnType<Runtime['getState']> | undefined,
): RunView {
  if (options.json) return new JsonView(terminal);
  if (terminal.isTTY && !options.headless) return new LiveView(terminal, state);
  return new PlainView(terminal, undefined, undefined, state);
}
