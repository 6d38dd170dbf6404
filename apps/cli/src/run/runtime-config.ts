import {
  type ConfigEntry,
  type ConfigValue,
  describeSource,
  type ResolvedRuntimeConfig,
  RuntimeError,
  resolveRuntimeConfig,
} from '@hankweave/runtime/config';
import type { RunOptions } from '../commands/run-flags.js';
import { CliError } from '../output/cli-error.js';
import type { Terminal } from '../output/terminal.js';

/**
 * The run flags that are runtime settings (reference §1.10: the command line wins over all),
 * picked by name from the run's inferred flags: a renamed flag fails typecheck here.
 */
export type RuntimeConfigFlags = Pick<
  RunOptions,
  | 'port'
  | 'model'
  | 'anthropicBaseUrl'
  | 'output'
  | 'shimIdleTimeout'
  | 'ignoreRigFailures'
  | 'autostart'
  | 'sandbox'
  | 'requireSandbox'
  | 'selfTest'
>;

/** The flags as runtime config values by key; absent flags are `undefined`. */
export function flagValues(flags: RuntimeConfigFlags): Record<string, ConfigValue | undefined> {
  return {
    port: flags.port,
    model: flags.model,
    anthropicBaseUrl: flags.anthropicBaseUrl,
    outputDirectory: flags.output,
    shimIdleTimeout: flags.shimIdleTimeout,
    // Boolean flags can only turn a setting one way: absent means "not given", not "false".
    ignoreRigFailures: flags.ignoreRigFailures === true ? true : undefined,
    autostart: flags.autostart === false ? false : undefined,
    sandbox: flags.sandbox === false ? false : undefined,
    requireSandbox: flags.requireSandbox === true ? true : undefined,
    selfTest: flags.selfTest === true ? true : undefined,
  };
}

/**
 * The runtime config for a run or a validation: hankweave.json in the cwd, the hank's
 * `overrides`, `HANKWEAVE_RUNTIME_*` and the flags.
 *
 * @throws {CliError} CLI_USAGE naming the file, variable or flag and the field.
 */
export function resolveCliRuntimeConfig(
  flags: RuntimeConfigFlags,
  hank: unknown,
): ResolvedRuntimeConfig {
  try {
    return resolveRuntimeConfig({ hank, env: process.env, cli: flagValues(flags) });
  } catch (error) {
    if (!RuntimeError.is(error, 'RUNTIME_INVALID_OPTION')) throw error;
    throw new CliError(
      'CLI_USAGE',
      error.message,
      'Fix the field named above (hankweave.json keys are listed in the runtime README, "Configuration").',
    );
  }
}

/** Prints each runtime setting's effective value and where it came from (`validate -v`). */
export function printRuntimeConfig(terminal: Terminal, config: ResolvedRuntimeConfig): void {
  const { style } = terminal;
  terminal.out(
    style.bold(`Runtime config`) +
      style.dim(
        config.file
          ? ` (hankweave.json: ${config.file})`
          : ' (no hankweave.json in the current directory)',
      ),
  );
  const width = Math.max(...config.entries.map((entry) => entry.key.length));
  for (const entry of config.entries) {
    terminal.out(
      `  ${entry.key.padEnd(width)}  ${showValue(entry)}  ${style.dim(`(${sourceLabel(entry, config)})`)}`,
    );
  }
}

/** The runtime config as JSON (`validate -v --json`): key, value, source, where. */
export function runtimeConfigJson(config: ResolvedRuntimeConfig): object[] {
  return config.entries.map((entry) => ({
    key: entry.key,
    ...(entry.value !== undefined ? { value: entry.value } : {}),
    source: entry.source,
    where: describeSource(entry.source, entry.key, config.file),
  }));
}

/** Prints the config's warnings (keys this version cannot carry out, unknown variables). */
export function printRuntimeConfigWarnings(
  print: (line: string) => void,
  terminal: Terminal,
  config: ResolvedRuntimeConfig,
): void {
  for (const warning of config.warnings) print(terminal.style.yellow(`! ${warning}`));
}

function showValue(entry: ConfigEntry): string {
  if (entry.value === undefined) return `- (${entry.unsetMeaning ?? 'unset'})`;
  return typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value);
}

function sourceLabel(entry: ConfigEntry, config: ResolvedRuntimeConfig): string {
  switch (entry.source) {
    case 'env':
    case 'hank':
      return `${entry.source} ${describeSource(entry.source, entry.key, config.file).replace(/^hank\.json /, '')}`;
    default:
      return entry.source;
  }
}
