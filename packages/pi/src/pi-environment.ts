import { buildAgentEnv, HarnessError } from '@hankweave/harness';
import { providerBaseUrlName, providerGenericKeyName, providerKeyNames } from '@hankweave/types';
import { type PiModel, providerKeyVariable } from './pi-model.js';

/** Pi's environment for one start, and what it says about the provider. */
export interface PiEnvironment {
  env: Record<string, string>;
  /** The local server to use: the harness option, else `<PROVIDER>_BASE_URL`. */
  baseUrl?: string;
  /** The variable holding the provider key, when one is set. */
  keyVariable?: string;
}

// The settings Pi (0.73.1) reads from its environment for the providers that sign in with their
// cloud's credentials or take their endpoint from variables of their own. The original runs Pi
// in its own process, where Pi sees all of them; ours gets only what is listed.
const PROVIDER_SETTINGS: Readonly<Record<string, { names?: string[]; prefixes?: string[] }>> = {
  'amazon-bedrock': { prefixes: ['AWS_'] },
  'azure-openai-responses': {
    names: [
      'AZURE_OPENAI_BASE_URL',
      'AZURE_OPENAI_RESOURCE_NAME',
      'AZURE_OPENAI_API_VERSION',
      'AZURE_OPENAI_DEPLOYMENT_NAME_MAP',
    ],
  },
  // Their catalog's base URLs hold `{CLOUDFLARE_ACCOUNT_ID}` and `{CLOUDFLARE_GATEWAY_ID}`.
  'cloudflare-ai-gateway': { names: ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_GATEWAY_ID'] },
  'cloudflare-workers-ai': { names: ['CLOUDFLARE_ACCOUNT_ID'] },
  'google-vertex': {
    names: [
      'GOOGLE_CLOUD_API_KEY',
      'GOOGLE_CLOUD_PROJECT',
      'GCLOUD_PROJECT',
      'GOOGLE_CLOUD_LOCATION',
      'GOOGLE_APPLICATION_CREDENTIALS',
    ],
  },
};

/** The variables of `baseEnv` that configure `provider` in Pi, beyond its key and base URL. */
function providerSettingNames(provider: string, baseEnv: Readonly<Record<string, unknown>>) {
  const settings = PROVIDER_SETTINGS[provider];
  if (settings === undefined) return [];
  const prefixes = settings.prefixes ?? [];
  return [
    ...(settings.names ?? []),
    ...Object.keys(baseEnv).filter((name) => prefixes.some((prefix) => name.startsWith(prefix))),
  ];
}

/**
 * Builds Pi's environment: the harness's shared rules (`buildAgentEnv`: passthrough names,
 * `HANKWEAVE_X` as `X`, the codon's env last), plus the provider's own key and base-URL
 * variables (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, …) and the settings Pi reads for it (`AWS_*`
 * for Bedrock, `AZURE_OPENAI_*`, the Google Cloud project for Vertex) from `baseEnv`, which the
 * shared rules do not pass, unless the codon's env set or unset them. A local server given as
 * `baseUrl` also replaces `AZURE_OPENAI_BASE_URL`, which Pi's Azure client prefers to it.
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
  const urlVariable = providerBaseUrlName(model.provider);
  const keyNames = providerKeyNames(model.provider);
  const generic = providerGenericKeyName(model.provider);
  for (const name of [
    ...keyNames,
    generic,
    urlVariable,
    ...providerSettingNames(model.provider, baseEnv),
  ]) {
    const value = baseEnv[name];
    if (env[name] === undefined && codonEnv?.[name] === undefined && value !== undefined) {
      env[name] = value;
    }
  }
  const baseUrl = input.baseUrl ?? nonEmpty(env[urlVariable]);
  if (input.baseUrl !== undefined && model.provider === 'azure-openai-responses') {
    // Pi's Azure client takes its endpoint from these before models.json: a dry run's scripted
    // model must not lose to the person's real Azure resource.
    env.AZURE_OPENAI_BASE_URL = input.baseUrl;
    delete env.AZURE_OPENAI_RESOURCE_NAME;
  }
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
