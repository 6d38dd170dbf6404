import { buildAgentEnv } from '@hankweave/harness';
import {
  type CodonConfig,
  defaultModelCatalog,
  type HankConfig,
  itemCodons,
  type ModelCatalog,
  selectHarness,
} from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import {
  type CredentialSource,
  findAnthropicCredentials,
  isFlagOn,
} from './anthropic-credentials.js';
import { findPiCredentials } from './pi-credentials.js';
import { DEFAULT_ANTHROPIC_BASE_URL, probeEndpoint } from './probe-endpoint.js';

/** Inputs of {@link preflight}. */
export interface PreflightOptions {
  /** The validated hank: every codon's model decides which provider must be usable. */
  config: HankConfig;
  /** The environment agents start from (the runtime's `env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where the agent is pointed instead of `ANTHROPIC_BASE_URL` (a proxy, a scripted model). */
  anthropicBaseUrl?: string;
  /** Where Pi codons are pointed instead of their provider's API (a local server, a scripted model). */
  piBaseUrl?: string;
  /** The agent talks to a scripted model: no credentials are needed, only that it answers. */
  scripted?: boolean;
  /** How long the reachability check may take per endpoint, in ms (default 3000). */
  timeoutMs?: number;
  /** Routes model ids to providers (default the built-in catalog). */
  models?: ModelCatalog;
}

/** What the preflight found usable: for the server log. */
export interface PreflightReport {
  /**
   * Where the credentials of the codons come from (one per distinct source): a
   * {@link CredentialSource} for Anthropic codons, the key variable (or base URL) for Pi codons.
   */
  credentials: (CredentialSource | string)[];
  /** The endpoints checked (`host:port`), every one reachable. */
  endpoints: string[];
}

const DEFAULT_TIMEOUT_MS = 3000;
const OFFLINE_HINT = 'or try the hank offline with --scripted-model <model-script.json>';

/** One endpoint to check, and the codons whose agents will call it. */
interface Endpoint {
  url: URL;
  /** Whose API it is, for the message: `Anthropic`, or a Pi codon's provider. */
  api: string;
  env: Record<string, string>;
  codons: string[];
}

/**
 * Checks, before an execution is created, what the first agent call would otherwise find out a
 * minute later: that every codon's provider has credentials, and that the API it calls answers.
 * Each codon is checked with the environment its agent will get (`HANKWEAVE_*` mapped, the
 * codon's `env` applied). Anthropic codons need Claude Code's credentials; Pi codons
 * (reference §1.9) need their provider's key (`providerKeyNames`) or a base URL (`piBaseUrl`,
 * `<PROVIDER>_BASE_URL`). `validateHank` already refuses models no installed harness runs.
 *
 * @throws {RuntimeError} RUNTIME_NO_CREDENTIALS (details.codons, details.looked) when an
 *   Anthropic codon has no API key, token, cloud switch, base URL or `claude login`, or a Pi
 *   codon has no provider key and no base URL (details.keys);
 *   RUNTIME_API_UNREACHABLE (details.url, target, error) when the API or its proxy does not
 *   answer within `timeoutMs`, or the base URL is not a URL.
 */
export async function preflight(options: PreflightOptions): Promise<PreflightReport> {
  const models = options.models ?? defaultModelCatalog;
  const credentials = new Set<CredentialSource | string>();
  const missing: { codons: string[]; looked: string[] } = { codons: [], looked: [] };
  const missingPi: { codons: string[]; keys: string[] } = { codons: [], keys: [] };
  const endpoints = new Map<string, Endpoint>();
  const codons: CodonConfig[] = options.config.hank.flatMap(itemCodons);
  const addEndpoint = (raw: string, api: string, env: Record<string, string>, codonId: string) => {
    const url = parseBaseUrl(raw, codonId, api);
    const endpoint = endpoints.get(url.href) ?? { url, api, env, codons: [] };
    endpoint.codons.push(codonId);
    endpoints.set(url.href, endpoint);
  };
  for (const codon of codons) {
    const selection = selectHarness(codon.model, models);
    if (selection.harness === 'pi') {
      const lookup = findPiCredentials(selection, options.env, codon.env, options.piBaseUrl);
      if (!lookup.found) {
        if (options.scripted) continue;
        missingPi.codons.push(codon.id);
        for (const name of [...lookup.keys, lookup.urlVariable])
          if (!missingPi.keys.includes(name)) missingPi.keys.push(name);
        continue;
      }
      if (!options.scripted) credentials.add(lookup.source);
      const env = buildAgentEnv({
        baseEnv: options.env,
        ...(codon.env !== undefined && { codonEnv: codon.env }),
      });
      if (lookup.baseUrl !== undefined)
        addEndpoint(lookup.baseUrl, `${selection.provider} API`, env, codon.id);
      continue;
    }
    const env = buildAgentEnv({
      baseEnv: options.env,
      ...(options.anthropicBaseUrl !== undefined && {
        anthropicBaseUrl: options.anthropicBaseUrl,
      }),
      ...(codon.env !== undefined && { codonEnv: codon.env }),
    });
    if (!options.scripted) {
      const lookup = findAnthropicCredentials(env);
      if (lookup.found) credentials.add(lookup.source);
      else {
        missing.codons.push(codon.id);
        for (const file of lookup.looked)
          if (!missing.looked.includes(file)) missing.looked.push(file);
      }
    }
    // Bedrock and Vertex calls go to the cloud provider's endpoint, not to an Anthropic URL.
    if (isFlagOn(env.CLAUDE_CODE_USE_BEDROCK) || isFlagOn(env.CLAUDE_CODE_USE_VERTEX)) continue;
    const raw = env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_ANTHROPIC_BASE_URL;
    addEndpoint(raw, 'Anthropic API', env, codon.id);
  }
  if (missing.codons.length > 0) throw noCredentials(missing.codons, missing.looked);
  if (missingPi.codons.length > 0) throw noPiCredentials(missingPi.codons, missingPi.keys);

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const results = await Promise.all(
    [...endpoints.values()].map(async (endpoint) => ({
      endpoint,
      result: await probeEndpoint(endpoint.url, endpoint.env, timeoutMs),
    })),
  );
  for (const { endpoint, result } of results) {
    if (result.ok) continue;
    const { url } = endpoint;
    const via = result.proxy ? ` through the proxy ${result.proxy}` : '';
    const setting =
      endpoint.api === 'Anthropic API'
        ? 'ANTHROPIC_BASE_URL / --anthropic-base-url'
        : "the <PROVIDER>_BASE_URL variable (OPENAI_BASE_URL, …) or the runtime's piBaseUrl";
    throw new RuntimeError(
      'RUNTIME_API_UNREACHABLE',
      `Cannot reach the ${endpoint.api} at ${url.origin}${via} (${result.code}: ${result.reason}). Check the network connection, a proxy (HTTPS_PROXY) or ${setting}, ${OFFLINE_HINT}.`,
      {
        details: {
          url: url.href,
          target: result.target,
          error: result.code,
          codons: endpoint.codons,
        },
      },
    );
  }
  return {
    credentials: [...credentials],
    endpoints: results.map(({ result }) => result.target),
  };
}

function parseBaseUrl(raw: string, codonId: string, api: string): URL {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // Reported below.
  }
  const fix =
    api === 'Anthropic API'
      ? 'fix ANTHROPIC_BASE_URL / --anthropic-base-url, e.g. https://api.anthropic.com'
      : 'fix the <PROVIDER>_BASE_URL variable or piBaseUrl, e.g. http://127.0.0.1:11434/v1';
  throw new RuntimeError(
    'RUNTIME_API_UNREACHABLE',
    `The ${api} base URL ${JSON.stringify(raw)} (for codon ${codonId}) is not an http(s) URL; ${fix}`,
    { details: { url: raw, error: 'INVALID_URL', codons: [codonId] } },
  );
}

function noCredentials(codons: string[], looked: string[]): RuntimeError {
  const which =
    codons.length === 1 ? `codon ${codons[0]}` : `codons ${codons.slice(0, 5).join(', ')}`;
  return new RuntimeError(
    'RUNTIME_NO_CREDENTIALS',
    `No Anthropic credentials for ${which}: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), log in with \`claude login\` (no login found at ${looked.join(' or ')}), ${OFFLINE_HINT}.`,
    { details: { codons, looked } },
  );
}

function noPiCredentials(codons: string[], keys: string[]): RuntimeError {
  const which =
    codons.length === 1 ? `codon ${codons[0]}` : `codons ${codons.slice(0, 5).join(', ')}`;
  const urls = keys.filter((name) => name.endsWith('_BASE_URL'));
  const keyNames = keys.filter((name) => !name.endsWith('_BASE_URL'));
  return new RuntimeError(
    'RUNTIME_NO_CREDENTIALS',
    `No API key for ${which} (run on the Pi harness): set ${keyNames.join(' or ')} (or HANKWEAVE_${keyNames[0]}), name a local OpenAI-compatible server with ${urls.join(' or ')}, ${OFFLINE_HINT}.`,
    { details: { codons, keys: keyNames, looked: [] } },
  );
}
