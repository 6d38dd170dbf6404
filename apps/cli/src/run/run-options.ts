import { resolve } from 'node:path';
import {
  type CreateRuntimeOptions,
  type ResolvedRuntimeConfig,
  runtimeOptionsOf,
} from '@hankweave/runtime';
import type { RunOptions } from '../commands/run-flags.js';
import { CliError } from '../output/cli-error.js';
import { positiveNumberFlag } from '../output/number-flags.js';
import { askYesNo } from './confirm.js';
import type { DryRun } from './dry-run.js';
import type { RunInputs } from './run-inputs.js';
import { resolveCliRuntimeConfig } from './runtime-config.js';

/**
 * Refuses `--replay` with `--execution` before any file is read: a replay always writes a new
 * execution.
 *
 * @throws {CliError} CLI_USAGE when both are given.
 */
export function refuseReplayIntoExecution(options: RunOptions): void {
  if (options.replay !== undefined && options.execution !== undefined) {
    throw new CliError(
      'CLI_USAGE',
      '--replay cannot be combined with --execution',
      'A replay always writes a new execution.',
    );
  }
}

/** The budget ceilings the flags set (`--max-cost` in dollars, `--max-time` in seconds). */
export interface RunLimits {
  maxCost?: number;
  maxTime?: number;
}

/**
 * Checks the run flags that take a value, each with its own message and example, before the
 * hank is read. The runtime config then takes them as its top layer (reference §1.10).
 *
 * @throws {CliError} CLI_USAGE naming the flag.
 */
export function checkRunFlags(options: RunOptions): RunLimits {
  if (options.scriptedModel && options.anthropicBaseUrl) {
    throw new CliError(
      'CLI_USAGE',
      '--scripted-model and --anthropic-base-url both set where the agent connects',
      'Pass one of them.',
    );
  }
  parseSeconds(options.shimIdleTimeout, '--shim-idle-timeout', 1, 1800);
  parsePort(options.port);
  const maxCost = positiveNumberFlag(options.maxCost, '--max-cost', '--max-cost 2.50');
  const maxTime = positiveNumberFlag(options.maxTime, '--max-time', '--max-time 600');
  return {
    ...(maxCost !== undefined ? { maxCost } : {}),
    ...(maxTime !== undefined ? { maxTime } : {}),
  };
}

/** The runtime settings of a run, resolved from every layer; the flags win. */
export interface RunSettings {
  /** Every setting with its source (for the warnings of `printRuntimeConfigWarnings`). */
  runtimeConfig: ResolvedRuntimeConfig;
  /** The settings as `createRuntime` options (without the port). */
  configured: Omit<ReturnType<typeof runtimeOptionsOf>, 'port'>;
  /** The WebSocket server's port (`--port`), when one is set. */
  port?: number;
  /** False with `--no-autostart` (or `autostart: false` in a lower layer). */
  autostart: boolean;
}

/**
 * The runtime config of a run: defaults < hankweave.json < the hank's overrides <
 * `HANKWEAVE_RUNTIME_*` < flags (reference §1.10).
 *
 * @throws {CliError} CLI_USAGE naming the file, variable or flag of a bad value.
 */
export function runSettings(options: RunOptions, parsedHank: unknown): RunSettings {
  const runtimeConfig = resolveCliRuntimeConfig(options, parsedHank);
  const { port, ...configured } = runtimeOptionsOf(runtimeConfig);
  return {
    runtimeConfig,
    configured,
    ...(port !== undefined ? { port } : {}),
    autostart: configured.autostart !== false,
  };
}

/** What a run has worked out before it creates its runtime. */
export interface RunPlan {
  inputs: RunInputs;
  /** The data was given inline (`--input`, `-`): stored once by content, always copied. */
  inlineData: boolean;
  settings: RunSettings;
  limits: RunLimits;
  /** The scripted model of a dry run (`--scripted-model`), started. */
  dryRun: DryRun | undefined;
  /** A person can answer confirmations (a terminal, neither --headless nor --json). */
  canAsk: boolean;
  logger: NonNullable<CreateRuntimeOptions['logger']>;
}

/** The `createRuntime` options of a run: the run flags over the resolved settings. */
export function createRuntimeOptions(options: RunOptions, plan: RunPlan): CreateRuntimeOptions {
  const { configured, autostart } = plan.settings;
  const { dryRun } = plan;
  return {
    hankPath: plan.inputs.hankPath,
    dataPath: plan.inputs.dataPath,
    ...(plan.inputs.hankSource !== undefined ? { hankSource: plan.inputs.hankSource } : {}),
    ...configured,
    ...(options.execution ? { executionDir: options.execution } : {}),
    ...(options.replay !== undefined ? { replay: { executionDir: resolve(options.replay) } } : {}),
    startNew: options.startNew === true,
    force: options.force === true,
    noWipe: options.wipe === false,
    copyData: options.copy === true || plan.inlineData,
    ...(options.yes
      ? { confirm: () => true }
      : plan.canAsk
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
    ...plan.limits,
    env: dryRun?.env ?? process.env,
    logger: plan.logger,
  };
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
