import {
  createRuntime,
  executionLayout,
  loadHank,
  type Runtime,
  type ShutdownReason,
} from '@hankweave/runtime';
import { CliError } from '../output/cli-error.js';
import { LiveView } from '../output/live-view.js';
import { JsonView, PlainView, type RunView } from '../output/run-view.js';
import { printSummary } from '../output/summary.js';
import type { Terminal } from '../output/terminal.js';
import { askYesNo } from '../run/confirm.js';
import { type DryRun, startDryRun } from '../run/dry-run.js';
import { attachIdleControls, IDLE_KEYS } from '../run/idle-controls.js';
import { resolveRunInputs } from '../run/run-inputs.js';
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
  yes?: boolean;
  force?: boolean;
  wipe?: boolean;
  scriptedModel?: string;
  anthropicBaseUrl?: string;
  json?: boolean;
  shimIdleTimeout?: string;
  port?: string;
  ignoreRigFailures?: boolean;
}

/** `hankweave <hank.json | dir> [data]`: runs a hank and shows it; returns the exit code (§2.6). */
export async function runCommand(
  terminal: Terminal,
  positionals: string[],
  options: RunOptions,
): Promise<number> {
  const inputs = await resolveRunInputs(positionals, options);
  if (options.validate)
    return validateCommand(terminal, inputs.hankPath, { json: options.json === true });
  if (options.scriptedModel && options.anthropicBaseUrl) {
    throw new CliError(
      'CLI_USAGE',
      '--scripted-model and --anthropic-base-url both set where the agent connects',
      'Pass one of them.',
    );
  }
  const idleTimeoutMs = parseSeconds(options.shimIdleTimeout, '--shim-idle-timeout', 1, 1800);
  const port = parsePort(options.port);
  // Read here first, so a file that is not JSON gets the same report as `validate` gives it
  // (file:line:column, the line and a caret), then validated exactly as the runtime will.
  const { config: parsedHank } = readHankJson(inputs.hankPath);
  const hank = loadHank({
    hank: parsedHank,
    hankPath: inputs.hankPath,
    ...(options.model ? { model: options.model } : {}),
  });
  const autostart = options.autostart !== false;
  const view = chooseView(terminal, options, () => runtime?.getState());
  const note = (line: string) => (options.json ? terminal.err(line) : terminal.out(line));
  const codonCount = hank.config.hank.reduce(
    (count, item) => count + ('codons' in item ? item.codons.length : 1),
    0,
  );
  note(
    `${terminal.style.bold('hankweave')} · ${hank.config.meta.name} ${hank.config.meta.version} · ${codonCount} codon(s)`,
  );

  let dryRun: DryRun | undefined;
  let runtime: Runtime | undefined;
  if (options.scriptedModel) {
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
    ...(options.execution ? { executionDir: options.execution } : {}),
    startNew: options.startNew === true,
    force: options.force === true,
    noWipe: options.wipe === false,
    copyData: options.copy === true,
    ...(options.yes
      ? { confirm: () => true }
      : interactive
        ? { confirm: (question: string) => askYesNo(question) }
        : {}),
    autostart,
    // The CLI has no controls while codons run automatically: a failure that would wait for a
    // command fails the run instead (the runtime's headless mode). --no-autostart keeps waiting.
    headless: autostart || options.headless === true,
    ...(options.model ? { model: options.model } : {}),
    ...(dryRun
      ? { anthropicBaseUrl: dryRun.model.url }
      : options.anthropicBaseUrl
        ? { anthropicBaseUrl: options.anthropicBaseUrl }
        : {}),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ignoreRigFailures: options.ignoreRigFailures === true,
    env: dryRun?.env ?? process.env,
    ...(port !== undefined ? { server: { port, serverVersion: cliVersion() } } : {}),
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
    started = true;
    view.started(active.executionDir);
    if (active.server) {
      const lock = executionLayout(active.executionDir).lockFile;
      view.log('info', `WebSocket: ${active.server.url} (clients need the token in ${lock})`);
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
      },
      view.summaryToStderr,
    );
    reportUnanswered(terminal, dryRun?.unanswered() ?? []);
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

/** Requests a dry run's script had no answer for, each distinct problem once. */
function reportUnanswered(terminal: Terminal, problems: string[]): void {
  if (problems.length === 0) return;
  const counts = new Map<string, number>();
  for (const problem of problems) counts.set(problem, (counts.get(problem) ?? 0) + 1);
  for (const [problem, count] of counts)
    terminal.err(
      terminal.style.yellow(
        `! The scripted model could not answer ${count} request(s): ${problem}`,
      ),
    );
  terminal.err(
    terminal.style.dim(
      '→ Give every codon a conversation whose match.marker appears in its prompt (see @hankweave/scripted-model).',
    ),
  );
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
