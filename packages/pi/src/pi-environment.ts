import { buildAgentEnv, HarnessError } from '@hankweave/harness';
import { providerKeyNames } from '@hankweave/types';
import { baseUrlVariable, type PiModel, providerKeyVariable } from './pi-model.js';

/** Pi's environment for one start, and what it says about the provider. */
export interface PiEnvironment {
  env: Record<string, string>;
  /** The local server to use: the harness option, else `<PROVIDER>_BASE_URL`. */
  baseUrl?: string;
  /** The variable holding the provider key, when one is set. */
  keyVariable?: string;
}

/**
 * Builds Pi's environment: the harness's shared rules (`buildAgentEnv`: passthrough names,
 * `HANKWEAVE_X` as `X`, the codon's env last), plus the provider's own key and base-URL
 * variables (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, …) from `baseEnv`, which the shared rules do
 * not pass, unless the codon's env set or unset them.
 * @throws {HarnessError} HARNESS_INVALID_OPTIONS when the provider needs a key, none is set and
 * no local server is named.
 */
export function buildPiEnvironment(input: {
  model: PiModel;
  baseEnv: Readonly<Record<string, string | undefined>>;
  codonEnv?: Readonly<Record<string, string>>;
  baseUrl?: string;
}): PiEnvironment {
  const { model, baseEnv, codonEnv } = input;
  const env = buildAgentEnv({ baseEnv, ...(codonEnv !== undefined && { codonEnv }) });
  const urlVariable = baseUrlVariable(model.provider);
  const keyNames = providerKeyNames(model.provider);
  const generic = `${urlVariable.slice(0, -'_BASE_URL'.length)}_API_KEY`;
  for (const name of [...keyNames, generic, urlVariable]) {
    const value = baseEnv[name];
    if (env[name] === undefined && codonEnv?.[name] === undefined && value !== undefined) {
      env[name] = value;
    }
  }
  const baseUrl = input.baseUrl ?? nonEmpty(env[urlVariable]);
  const keyVariable = providerKeyVariable(model.provider, env);
  if (baseUrl === undefined && keyVariable === undefined && keyNames.length > 0) {
    throw new HarnessError(
      'HARNESS_INVALID_OPTIONS',
      `Pi needs an API key for provider "${model.provider}": set ${keyNames.join(' or ')} (or HANKWEAVE_${keyNames[0]}), or name a local server with ${urlVariable}`,
      { details: { field: 'env', provider: model.provider, variables: [...keyNames] } },
    );
  }
  return {
    env,
    ...(baseUrl !== undefined && { baseUrl }),
    ...(keyVariable !== undefined && { keyVariable }),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
