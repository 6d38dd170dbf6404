import { buildAgentEnv } from '@hankweave/harness';
import { type HarnessSelection, providerBaseUrlName, providerKeyNames } from '@hankweave/types';
import { findAnthropicCredentials } from '../preflight/anthropic-credentials.js';
import { findPiCredentials } from '../preflight/pi-credentials.js';
import { DEFAULT_ANTHROPIC_BASE_URL } from '../preflight/probe-endpoint.js';
import type { HarnessSettings } from '../runtime/default-harness.js';

/** Where a model's agent will send its request, and what it authenticates with. */
export interface AccessTarget {
  /** Credentials were found (or the provider needs none). */
  credentials: boolean;
  /** The variable (or login) the agent authenticates with, else the one to set. */
  keyVariable: string;
  /** The variables any one of which would do, when none is set. */
  missing?: readonly string[];
  /** Where the request goes; undefined when the provider's endpoint is not known here. */
  endpoint?: string;
  /** What chose that endpoint: a variable, a runtime setting, or `default`. */
  endpointSetting: string;
}

// The public APIs of the providers with a key of their own (as the preflight probes them).
const DEFAULT_PROVIDER_URLS: Readonly<Record<string, string>> = {
  openai: 'https://api.openai.com',
  google: 'https://generativelanguage.googleapis.com',
  openrouter: 'https://openrouter.ai',
};

const isSet = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== '';

/**
 * The credentials and endpoint of a model's agent, found as the preflight and the adapters find
 * them: Claude Code from its environment (`anthropicBaseUrl` over `ANTHROPIC_BASE_URL`), Pi from
 * its provider's key names and `piBaseUrl` over `<PROVIDER>_BASE_URL`.
 */
export function accessTarget(
  selection: HarnessSelection,
  settings: HarnessSettings,
  codonEnv?: Readonly<Record<string, string>>,
): AccessTarget {
  const env = agentEnv(settings, codonEnv);
  if (selection.harness === 'pi') {
    const lookup = findPiCredentials(selection, settings.env, codonEnv, settings.piBaseUrl);
    const urlVariable = providerBaseUrlName(selection.provider);
    const endpointSetting = isSet(settings.piBaseUrl)
      ? 'piBaseUrl'
      : isSet(env[urlVariable])
        ? urlVariable
        : 'default';
    const endpoint =
      endpointSetting === 'piBaseUrl'
        ? settings.piBaseUrl
        : endpointSetting === urlVariable
          ? env[urlVariable]
          : DEFAULT_PROVIDER_URLS[selection.provider];
    const keyNames = providerKeyNames(selection.provider);
    if (!lookup.found) {
      return {
        credentials: false,
        keyVariable: keyNames[0] ?? urlVariable,
        missing: [...lookup.keys, lookup.urlVariable],
        endpointSetting,
        ...(endpoint !== undefined && { endpoint }),
      };
    }
    const keyVariable = keyNames.includes(lookup.source) ? lookup.source : (keyNames[0] ?? 'none');
    return {
      credentials: true,
      keyVariable,
      endpointSetting,
      ...(endpoint !== undefined && { endpoint }),
    };
  }
  const lookup = findAnthropicCredentials(env);
  const endpointSetting = isSet(settings.anthropicBaseUrl)
    ? 'anthropicBaseUrl'
    : isSet(env.ANTHROPIC_BASE_URL)
      ? 'ANTHROPIC_BASE_URL'
      : 'default';
  const endpoint = env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_ANTHROPIC_BASE_URL;
  if (!lookup.found) {
    return {
      credentials: false,
      keyVariable: 'ANTHROPIC_API_KEY',
      missing: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
      endpoint,
      endpointSetting,
    };
  }
  // A base URL alone counts as credentials (a proxy may add its own): the key to fix is the API key.
  const keyVariable = lookup.source === 'ANTHROPIC_BASE_URL' ? 'ANTHROPIC_API_KEY' : lookup.source;
  return { credentials: true, keyVariable, endpoint, endpointSetting };
}

/** The environment the agent gets (`HANKWEAVE_X` as `X`, the base URL and the codon env applied). */
function agentEnv(
  settings: HarnessSettings,
  codonEnv: Readonly<Record<string, string>> | undefined,
): Record<string, string | undefined> {
  return {
    ...settings.env,
    ...buildAgentEnv({
      baseEnv: settings.env,
      ...(settings.anthropicBaseUrl !== undefined && {
        anthropicBaseUrl: settings.anthropicBaseUrl,
      }),
      ...(codonEnv !== undefined && { codonEnv }),
    }),
  };
}
