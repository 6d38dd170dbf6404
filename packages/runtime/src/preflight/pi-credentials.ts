import { buildAgentEnv } from '@hankweave/harness';
import {
  type HarnessSelection,
  providerBaseUrlName,
  providerGenericKeyName,
  providerKeyNames,
} from '@hankweave/types';

type Env = Readonly<Record<string, string | undefined>>;

/** What a Pi codon's agent would authenticate with and call, as the Pi adapter decides it. */
export type PiCredentialLookup =
  | {
      found: true;
      /** The key variable, `<PROVIDER>_BASE_URL`, or `piBaseUrl`: for the server log. */
      source: string;
      /** Where the agent will send its requests; undefined for an API we do not probe. */
      baseUrl?: string;
    }
  | {
      found: false;
      /** The variables any one of which would do. */
      keys: readonly string[];
      /** The base-URL variable that would do instead (`OPENAI_BASE_URL`). */
      urlVariable: string;
    };

// The public APIs of the providers with a key of their own, probed like api.anthropic.com. A
// provider missing here (zai, deepseek, groq, …) is still checked for its key, not reached.
const DEFAULT_PROVIDER_URLS: Readonly<Record<string, string>> = {
  openai: 'https://api.openai.com',
  google: 'https://generativelanguage.googleapis.com',
  openrouter: 'https://openrouter.ai',
};

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;

/**
 * Looks for a Pi codon's credentials the way `@hankweave/pi` does when it starts (its shared
 * environment rules: `HANKWEAVE_X` as `X`, the codon's `env` last; the provider's own variables
 * from the base environment): the runtime's `piBaseUrl`, else a key (`providerKeyNames`, or
 * `<PROVIDER>_API_KEY`), else `<PROVIDER>_BASE_URL`. A provider without a known key (a local
 * server) needs nothing.
 */
export function findPiCredentials(
  selection: HarnessSelection,
  baseEnv: Env,
  codonEnv: Readonly<Record<string, string>> | undefined,
  piBaseUrl: string | undefined,
): PiCredentialLookup {
  const env: Record<string, string | undefined> = {
    ...baseEnv,
    ...buildAgentEnv({ baseEnv, ...(codonEnv !== undefined && { codonEnv }) }),
  };
  const urlVariable = providerBaseUrlName(selection.provider);
  const keys = providerKeyNames(selection.provider);
  const localUrl = nonEmpty(piBaseUrl) ?? nonEmpty(env[urlVariable]);
  const key = [...keys, providerGenericKeyName(selection.provider)].find(
    (name) => nonEmpty(env[name]) !== undefined,
  );
  if (piBaseUrl !== undefined && localUrl !== undefined) {
    return { found: true, source: 'piBaseUrl', baseUrl: localUrl };
  }
  if (key !== undefined) {
    const url = localUrl ?? DEFAULT_PROVIDER_URLS[selection.provider];
    return { found: true, source: key, ...(url !== undefined && { baseUrl: url }) };
  }
  if (localUrl !== undefined) return { found: true, source: urlVariable, baseUrl: localUrl };
  if (keys.length === 0) return { found: true, source: 'no key needed' };
  return { found: false, keys, urlVariable };
}
