/**
 * The keys of the runtime config (reference §1.10): one table drives `hankweave.json`'s strict
 * reading, the `HANKWEAVE_RUNTIME_*` mapping, the precedence and `validate -v`'s listing, so a key
 * cannot be read in one place and forgotten in another.
 */

/** Where an effective value came from, lowest precedence first. */
export const CONFIG_SOURCES = ['default', 'hankweave.json', 'hank', 'env', 'cli'] as const;
/** One of {@link CONFIG_SOURCES}. */
export type ConfigSource = (typeof CONFIG_SOURCES)[number];

/** A config value: every key is a scalar once nested objects are flattened to dotted keys. */
export type ConfigValue = string | number | boolean;

/** How a key's value is checked and how its environment variable is parsed. */
export type ConfigKind =
  | { type: 'boolean' }
  | { type: 'integer'; min: number; max?: number }
  | { type: 'positive' }
  | { type: 'string' }
  | { type: 'url' };

/** What this version does with a key whose value it cannot honour. */
export interface Unhonoured {
  /** The values that describe what this version does anyway (accepted quietly). */
  honours: (value: ConfigValue) => boolean;
  /** `error`: refused (the run would not be what was asked); `warn`: accepted with a warning. */
  severity: 'error' | 'warn';
  /** Why, in the user's words. */
  message: string;
}

/** One key of the runtime config. */
export interface ConfigKeySpec {
  /** Dotted for nested objects: `sentinel.enablePersistence`, `budget.maxDollars`. */
  key: string;
  kind: ConfigKind;
  /** The value when no source sets it (none: the setting is off). */
  default?: ConfigValue;
  /** What "no value" means, for `validate -v`. */
  unsetMeaning?: string;
  /** Set by the hank's `overrides` too (its path there). */
  hankOverride?: string;
  /** Set when this version cannot carry the key out for some values. */
  unhonoured?: Unhonoured;
}

const SENTINEL_NOT_IN_EFFECT: Unhonoured = {
  honours: () => false,
  severity: 'warn',
  message: 'sentinel health checks are not made by this version, so this setting has no effect',
};

/** Every runtime config key, in the order `validate -v` lists them. */
export const RUNTIME_CONFIG_KEYS: readonly ConfigKeySpec[] = [
  {
    key: 'port',
    kind: { type: 'integer', min: 0, max: 65535 },
    unsetMeaning: 'no WebSocket server',
  },
  { key: 'autostart', kind: { type: 'boolean' }, default: true },
  {
    key: 'showCosts',
    kind: { type: 'boolean' },
    default: true,
    unhonoured: {
      honours: (value) => value === true,
      severity: 'warn',
      message: 'showCosts: false has no effect: this version always shows costs',
    },
  },
  {
    key: 'withoutProxy',
    kind: { type: 'boolean' },
    default: true,
    unhonoured: {
      honours: (value) => value === true,
      severity: 'error',
      message:
        'withoutProxy: false asks for the local LLM proxy, which this version does not have; remove the key (or use anthropicBaseUrl to send the agent to your own proxy)',
    },
  },
  {
    key: 'model',
    kind: { type: 'string' },
    hankOverride: 'overrides.model',
    unsetMeaning: "each codon's own",
  },
  { key: 'anthropicBaseUrl', kind: { type: 'url' }, unsetMeaning: "the agent's default" },
  { key: 'outputDirectory', kind: { type: 'string' }, unsetMeaning: 'outputFiles are not copied' },
  { key: 'executionBaseDir', kind: { type: 'string' }, unsetMeaning: '~/.hankweave-executions' },
  {
    key: 'logParsingInterval',
    kind: { type: 'integer', min: 1 },
    unhonoured: {
      honours: () => false,
      severity: 'warn',
      message: 'logParsingInterval has no effect: this version parses the agent log as it streams',
    },
  },
  {
    key: 'dataHashTimeLimit',
    kind: { type: 'integer', min: 1 },
    default: 5000,
    hankOverride: 'overrides.dataHashTimeLimit',
  },
  {
    key: 'idleTimeout',
    kind: { type: 'integer', min: 0, max: 255 },
    default: 0,
    unhonoured: {
      honours: (value) => value === 0,
      severity: 'warn',
      message:
        'idleTimeout has no effect: the WebSocket server has no idle timeout in this version',
    },
  },
  {
    key: 'shimIdleTimeout',
    kind: { type: 'integer', min: 1, max: 1800 },
    default: 180,
    hankOverride: 'overrides.shimIdleTimeout',
  },
  { key: 'ignoreRigFailures', kind: { type: 'boolean' }, default: false },
  // Containment (issue 31): `false` runs without the OS sandbox (`--no-sandbox`); `requireSandbox`
  // refuses to run without one (`--require-sandbox`).
  { key: 'sandbox', kind: { type: 'boolean' }, default: true },
  { key: 'requireSandbox', kind: { type: 'boolean' }, default: false },
  // Issue 34: `true` checks every model the hank uses (`checkModelAccess`: the key authenticates,
  // one minimal request succeeds) before a run starts, and refuses to start when one fails. The
  // runtime does not read it: the CLI runs the check (`--self-test`) before it creates a runtime.
  { key: 'selfTest', kind: { type: 'boolean' }, default: false },
  {
    key: 'sentinel.enablePersistence',
    kind: { type: 'boolean' },
    default: true,
    hankOverride: 'overrides.sentinel.enablePersistence',
  },
  {
    key: 'sentinel.healthCheckGracePeriodMs',
    kind: { type: 'integer', min: 0 },
    hankOverride: 'overrides.sentinel.healthCheckGracePeriodMs',
    unhonoured: SENTINEL_NOT_IN_EFFECT,
  },
  {
    key: 'sentinel.waitForAllHealthChecks',
    kind: { type: 'boolean' },
    hankOverride: 'overrides.sentinel.waitForAllHealthChecks',
    unhonoured: SENTINEL_NOT_IN_EFFECT,
  },
  {
    key: 'telemetry',
    kind: { type: 'boolean' },
    default: false,
    unhonoured: {
      honours: (value) => value === false,
      severity: 'warn',
      message: 'telemetry: true has no effect: this version collects and sends no telemetry',
    },
  },
  { key: 'budget.maxDollars', kind: { type: 'positive' }, unsetMeaning: 'no runtime ceiling' },
  { key: 'budget.maxTimeSeconds', kind: { type: 'positive' }, unsetMeaning: 'no runtime ceiling' },
  // Not in the original: agentRoot's scans from file-system events on big trees (issue 39).
  { key: 'fileWatch.enabled', kind: { type: 'boolean' }, default: true },
  { key: 'fileWatch.minFiles', kind: { type: 'integer', min: 0 }, default: 10_000 },
  { key: 'fileWatch.settleTimeoutMs', kind: { type: 'integer', min: 1 }, default: 2000 },
];

/** The spec of a dotted key. */
export const CONFIG_KEY_SPECS: ReadonlyMap<string, ConfigKeySpec> = new Map(
  RUNTIME_CONFIG_KEYS.map((spec) => [spec.key, spec]),
);

/** The objects of the config: their own keys are strict too. */
export const NESTED_CONFIG_OBJECTS = ['sentinel', 'budget', 'fileWatch'] as const;

/** `sentinel.enablePersistence` → `HANKWEAVE_RUNTIME_SENTINEL_ENABLE_PERSISTENCE`. */
export function envNameOf(key: string): string {
  const snake = key
    .split('.')
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase())
    .join('_');
  return `HANKWEAVE_RUNTIME_${snake}`;
}

/**
 * Checks one value against its key's kind; returns the value to use (an env string parsed) or
 * what is wrong with it.
 */
export function checkConfigValue(
  spec: ConfigKeySpec,
  value: unknown,
  fromEnv = false,
): { ok: true; value: ConfigValue } | { ok: false; problem: string } {
  const { kind } = spec;
  let candidate = value;
  if (fromEnv && typeof value === 'string') {
    if (kind.type === 'boolean') {
      // The original accepts `true` / `1`; `false` / `0` say the other thing as clearly.
      const lower = value.trim().toLowerCase();
      if (lower === 'true' || lower === '1') candidate = true;
      else if (lower === 'false' || lower === '0') candidate = false;
    } else if (kind.type === 'integer' || kind.type === 'positive') {
      candidate = value.trim() === '' ? Number.NaN : Number(value);
    }
  }
  switch (kind.type) {
    case 'boolean':
      return typeof candidate === 'boolean'
        ? { ok: true, value: candidate }
        : { ok: false, problem: fromEnv ? 'expects true, 1, false or 0' : 'expects true or false' };
    case 'integer': {
      const range = kind.max === undefined ? `>= ${kind.min}` : `${kind.min}-${kind.max}`;
      return typeof candidate === 'number' &&
        Number.isInteger(candidate) &&
        candidate >= kind.min &&
        (kind.max === undefined || candidate <= kind.max)
        ? { ok: true, value: candidate }
        : { ok: false, problem: `expects a whole number ${range}` };
    }
    case 'positive':
      return typeof candidate === 'number' && Number.isFinite(candidate) && candidate > 0
        ? { ok: true, value: candidate }
        : { ok: false, problem: 'expects a number > 0' };
    case 'string':
      return typeof candidate === 'string' && candidate.trim() !== ''
        ? { ok: true, value: candidate }
        : { ok: false, problem: 'expects a non-empty string' };
    case 'url':
      return typeof candidate === 'string' && URL.canParse(candidate) && /^https?:/i.test(candidate)
        ? { ok: true, value: candidate }
        : { ok: false, problem: 'expects an http(s) URL' };
  }
}
