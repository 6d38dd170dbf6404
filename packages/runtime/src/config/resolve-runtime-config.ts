import { join, resolve } from 'node:path';
import { RuntimeError } from '../errors.js';
import type { CreateRuntimeOptions } from '../runtime/create-runtime-options.js';
import type { SandboxMode } from '../sandbox/containment.js';
import {
  type ConfigProblem,
  type ConfigValues,
  configError,
  RUNTIME_CONFIG_FILE,
  readRuntimeConfigFile,
  runtimeConfigFromEnv,
} from './read-runtime-config.js';
import {
  CONFIG_KEY_SPECS,
  CONFIG_SOURCES,
  type ConfigSource,
  type ConfigValue,
  checkConfigValue,
  envNameOf,
  RUNTIME_CONFIG_KEYS,
} from './runtime-config-keys.js';

/** One effective setting and where it came from. */
export interface ConfigEntry {
  /** Dotted for nested keys: `sentinel.enablePersistence`, `budget.maxDollars`. */
  key: string;
  /** Absent when no source sets it and it has no default (see `unsetMeaning`). */
  value?: ConfigValue;
  source: ConfigSource;
  /** What an absent value means (`no WebSocket server`). */
  unsetMeaning?: string;
}

/** The runtime config after the precedence chain (reference §1.10). */
export interface ResolvedRuntimeConfig {
  /** Every key, in the order of {@link RUNTIME_CONFIG_KEYS}. */
  entries: ConfigEntry[];
  /** The hankweave.json that was read (absent: there was none). */
  file?: string;
  /** Keys set to something this version does not do, and unknown `HANKWEAVE_RUNTIME_*` names. */
  warnings: string[];
  /** The effective value of a key. */
  get(key: string): ConfigValue | undefined;
  /** Where a key's value came from. */
  sourceOf(key: string): ConfigSource;
}

/** What the precedence chain reads. */
export interface RuntimeConfigInputs {
  /** Where hankweave.json is looked for (default the cwd). */
  cwd?: string;
  /** The `HANKWEAVE_RUNTIME_*` variables are read from here (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The parsed hank.json: its `overrides` rank above hankweave.json, below env. */
  hank?: unknown;
  /** Command-line values by key (undefined: not given); they win over everything. */
  cli?: Readonly<Record<string, ConfigValue | undefined>>;
}

/**
 * Resolves the runtime settings: defaults < `hankweave.json` (in the cwd) < the hank's
 * `overrides` < `HANKWEAVE_RUNTIME_*` < the command line (reference §1.10).
 *
 * hankweave.json is looked for in the cwd only: it holds the operator's settings for this
 * machine (port, where executions live, a ceiling on spending), while what belongs to a hank
 * travels in its own `overrides`.
 *
 * @throws {RuntimeError} RUNTIME_INVALID_OPTION for a bad hankweave.json (naming the file and
 *   field), a malformed `HANKWEAVE_RUNTIME_*` value, a bad command-line value, or a value this
 *   version refuses (`withoutProxy: false`).
 */
export function resolveRuntimeConfig(inputs: RuntimeConfigInputs = {}): ResolvedRuntimeConfig {
  const file = join(resolve(inputs.cwd ?? process.cwd()), RUNTIME_CONFIG_FILE);
  const fromFile = readRuntimeConfigFile(file);
  const fromEnv = runtimeConfigFromEnv(inputs.env ?? process.env);
  if (fromEnv.problems.length > 0) throw configError('the environment', fromEnv.problems);
  const fromCli = cliValues(inputs.cli ?? {});
  const layers: [ConfigSource, ConfigValues][] = [
    ['cli', fromCli],
    ['env', fromEnv.values],
    ['hank', hankOverrides(inputs.hank)],
    ['hankweave.json', fromFile ?? new Map()],
  ];
  const entries: ConfigEntry[] = [];
  const warnings = [...fromEnv.warnings];
  const refused: ConfigProblem[] = [];
  for (const spec of RUNTIME_CONFIG_KEYS) {
    const layer = layers.find(([, values]) => values.has(spec.key));
    const source: ConfigSource = layer?.[0] ?? 'default';
    const value = layer ? layer[1].get(spec.key) : spec.default;
    entries.push({
      key: spec.key,
      ...(value !== undefined ? { value } : {}),
      source,
      ...(spec.unsetMeaning ? { unsetMeaning: spec.unsetMeaning } : {}),
    });
    if (source === 'default' || value === undefined || !spec.unhonoured) continue;
    if (spec.unhonoured.honours(value)) continue;
    const where = `${spec.key} (${describeSource(source, spec.key, file)})`;
    if (spec.unhonoured.severity === 'error')
      refused.push({ field: where, message: spec.unhonoured.message });
    else warnings.push(`${where}: ${spec.unhonoured.message}`);
  }
  if (refused.length > 0) throw configError('the runtime config', refused);
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  return {
    entries,
    ...(fromFile ? { file } : {}),
    warnings,
    get: (key) => byKey.get(key)?.value,
    sourceOf: (key) => byKey.get(key)?.source ?? 'default',
  };
}

/** Where a source is, for messages: the file, the variable, the hank field or "command line". */
export function describeSource(source: ConfigSource, key: string, file?: string): string {
  switch (source) {
    case 'hankweave.json':
      return file ?? RUNTIME_CONFIG_FILE;
    case 'env':
      return envNameOf(key);
    case 'hank':
      return `hank.json ${CONFIG_KEY_SPECS.get(key)?.hankOverride ?? key}`;
    case 'cli':
      return 'command line';
    default:
      return 'default';
  }
}

/**
 * The `createRuntime` options the resolved config sets. Values that came from the hank's own
 * `overrides` are left to the runtime, which applies them itself; relative paths resolve against
 * `cwd` (where hankweave.json is, and where the command was typed).
 */
export function runtimeOptionsOf(
  config: ResolvedRuntimeConfig,
  cwd: string = process.cwd(),
): Partial<CreateRuntimeOptions> & { port?: number } {
  const set = (key: string) => {
    const source = config.sourceOf(key);
    return source === 'default' || source === 'hank' ? undefined : config.get(key);
  };
  const options: Partial<CreateRuntimeOptions> & { port?: number } = {
    autostart: config.get('autostart') !== false,
    ignoreRigFailures: config.get('ignoreRigFailures') === true,
  };
  const port = config.get('port');
  if (typeof port === 'number') options.port = port;
  const model = set('model');
  if (typeof model === 'string') options.model = model;
  const baseUrl = set('anthropicBaseUrl');
  if (typeof baseUrl === 'string') options.anthropicBaseUrl = baseUrl;
  const output = set('outputDirectory');
  if (typeof output === 'string') options.outputDirectory = resolve(cwd, output);
  const base = set('executionBaseDir');
  if (typeof base === 'string') options.executionBaseDir = resolve(cwd, base);
  const hashLimit = set('dataHashTimeLimit');
  if (typeof hashLimit === 'number') options.dataHashTimeLimitMs = hashLimit;
  const idle = set('shimIdleTimeout');
  if (typeof idle === 'number') options.idleTimeoutMs = idle * 1000;
  const persist = set('sentinel.enablePersistence');
  if (typeof persist === 'boolean') options.sentinel = { enablePersistence: persist };
  const sandbox = sandboxModeOf(config);
  if (sandbox !== 'auto') options.sandbox = sandbox;
  const watchEnabled = set('fileWatch.enabled');
  const watchMinFiles = set('fileWatch.minFiles');
  const watchSettle = set('fileWatch.settleTimeoutMs');
  if (
    typeof watchEnabled === 'boolean' ||
    typeof watchMinFiles === 'number' ||
    typeof watchSettle === 'number'
  ) {
    options.fileWatch = {
      ...(typeof watchEnabled === 'boolean' ? { enabled: watchEnabled } : {}),
      ...(typeof watchMinFiles === 'number' ? { minFiles: watchMinFiles } : {}),
      ...(typeof watchSettle === 'number' ? { settleTimeoutMs: watchSettle } : {}),
    };
  }
  const maxDollars = config.get('budget.maxDollars');
  const maxTimeSeconds = config.get('budget.maxTimeSeconds');
  if (typeof maxDollars === 'number' || typeof maxTimeSeconds === 'number') {
    options.budget = {
      ...(typeof maxDollars === 'number' ? { maxDollars } : {}),
      ...(typeof maxTimeSeconds === 'number' ? { maxTimeSeconds } : {}),
    };
  }
  return options;
}

/**
 * The `sandbox` option from the `sandbox` and `requireSandbox` keys. Both at once contradict
 * each other: the one from the stronger source wins (`--no-sandbox` over a hankweave.json that
 * requires it); from the same source they are refused.
 *
 * @throws {RuntimeError} RUNTIME_INVALID_OPTION for both from one source.
 */
function sandboxModeOf(config: ResolvedRuntimeConfig): SandboxMode {
  const off = config.get('sandbox') === false;
  const required = config.get('requireSandbox') === true;
  if (off && required) {
    const offRank = CONFIG_SOURCES.indexOf(config.sourceOf('sandbox'));
    const requiredRank = CONFIG_SOURCES.indexOf(config.sourceOf('requireSandbox'));
    if (offRank === requiredRank) {
      throw new RuntimeError(
        'RUNTIME_INVALID_OPTION',
        `sandbox: false and requireSandbox: true (both from ${config.sourceOf('sandbox')}) contradict each other; keep one`,
        { details: { option: 'sandbox' } },
      );
    }
    return offRank > requiredRank ? 'off' : 'require';
  }
  return off ? 'off' : required ? 'require' : 'auto';
}

function cliValues(cli: Readonly<Record<string, ConfigValue | undefined>>): ConfigValues {
  const values: ConfigValues = new Map();
  const problems: ConfigProblem[] = [];
  for (const [key, value] of Object.entries(cli)) {
    if (value === undefined) continue;
    const spec = CONFIG_KEY_SPECS.get(key);
    if (!spec) {
      problems.push({ field: key, message: 'is not a runtime setting' });
      continue;
    }
    const checked = checkConfigValue(spec, value, typeof value === 'string');
    if (checked.ok) values.set(key, checked.value);
    else problems.push({ field: key, message: `${checked.problem}, got ${JSON.stringify(value)}` });
  }
  if (problems.length > 0) throw configError('the command line', problems);
  return values;
}

/** The hank's `overrides` that are runtime settings (validateHank has checked their types). */
function hankOverrides(hank: unknown): ConfigValues {
  const values: ConfigValues = new Map();
  const overrides = (hank as { overrides?: unknown } | null | undefined)?.overrides;
  if (overrides === null || typeof overrides !== 'object') return values;
  for (const spec of RUNTIME_CONFIG_KEYS) {
    if (!spec.hankOverride) continue;
    let value: unknown = { overrides };
    for (const part of spec.hankOverride.split('.')) {
      value =
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[part]
          : undefined;
    }
    if (value === undefined) continue;
    const checked = checkConfigValue(spec, value);
    if (checked.ok) values.set(spec.key, checked.value);
  }
  return values;
}
