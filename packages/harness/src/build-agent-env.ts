/** Variables passed to the agent by name (reference §4.2). */
export const PASSTHROUGH_ENV_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'SHELL',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'CLAUDE_CONFIG_DIR',
] as const;

/** Variables passed to the agent by prefix. */
export const PASSTHROUGH_ENV_PREFIXES = ['CLAUDE_CODE_', 'ANTHROPIC_'] as const;

/** `HANKWEAVE_X` becomes `X` for the agent, except under these prefixes (hankweave's own). */
const HANKWEAVE_PREFIX = 'HANKWEAVE_';
const HANKWEAVE_PRIVATE_PREFIXES = ['HANKWEAVE_RUNTIME_', 'HANKWEAVE_SENTINEL_'];

/** The value that deletes a variable instead of setting it. */
export const UNSET_ENV_VALUE = 'unset';

/** Inputs of {@link buildAgentEnv}. */
export interface BuildAgentEnvOptions {
  /** Where passthrough and `HANKWEAVE_*` variables come from. Default `process.env`. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Overrides `ANTHROPIC_BASE_URL` (the LLM proxy, or a scripted model in tests). */
  anthropicBaseUrl?: string;
  /** The codon's `env`, applied last; the value `unset` deletes a variable here too. */
  codonEnv?: Readonly<Record<string, string>>;
}

function isPassthrough(name: string): boolean {
  return (
    (PASSTHROUGH_ENV_NAMES as readonly string[]).includes(name) ||
    PASSTHROUGH_ENV_PREFIXES.some((prefix) => name.startsWith(prefix))
  );
}

function applyValue(env: Record<string, string>, name: string, value: string): void {
  if (value === UNSET_ENV_VALUE) delete env[name];
  else env[name] = value;
}

/**
 * Builds the agent's environment (reference §4.2). The agent does not inherit the parent's
 * environment, so nothing leaks in that is not listed here. In order:
 * 1. `PATH HOME USER SHELL TMPDIR LANG LC_ALL CLAUDE_CONFIG_DIR`, all `CLAUDE_CODE_*`, all
 *    `ANTHROPIC_*` from `baseEnv`;
 * 2. every `HANKWEAVE_X` as `X`, except `HANKWEAVE_RUNTIME_*` and `HANKWEAVE_SENTINEL_*`; the value
 *    `unset` deletes `X` (also one passed through in step 1);
 * 3. `anthropicBaseUrl` as `ANTHROPIC_BASE_URL`;
 * 4. the codon's env, last.
 * Pure: reads only its arguments (and `process.env` when `baseEnv` is not given).
 */
export function buildAgentEnv(options: BuildAgentEnvOptions = {}): Record<string, string> {
  const base = options.baseEnv ?? process.env;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && isPassthrough(name)) env[name] = value;
  }
  // Sorted so that the result does not depend on the order of the base environment.
  const mapped = Object.keys(base)
    .filter(
      (name) =>
        name.startsWith(HANKWEAVE_PREFIX) &&
        name.length > HANKWEAVE_PREFIX.length &&
        !HANKWEAVE_PRIVATE_PREFIXES.some((prefix) => name.startsWith(prefix)),
    )
    .sort();
  for (const name of mapped) {
    const value = base[name];
    if (value !== undefined) applyValue(env, name.slice(HANKWEAVE_PREFIX.length), value);
  }
  if (options.anthropicBaseUrl !== undefined) env.ANTHROPIC_BASE_URL = options.anthropicBaseUrl;
  for (const [name, value] of Object.entries(options.codonEnv ?? {})) applyValue(env, name, value);
  return env;
}
