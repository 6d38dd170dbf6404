import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';
import type { AgentHarness } from '@hankweave/harness';
import {
  checkModelId,
  defaultModelCatalog,
  HARNESS_NAMES,
  type HarnessName,
  type ModelCatalog,
  selectHarness,
} from '@hankweave/types';
import {
  ADAPTER_PACKAGES,
  claudeCodeLoader,
  type HarnessLoaders,
  type HarnessSettings,
  installedHarnesses,
  piLoader,
} from '../runtime/default-harness.js';
import { type AccessTarget, accessTarget } from './access-target.js';
import { badKeyFix, endpointPhrase, unreachableFix } from './access-wording.js';
import { classifyProbeFailure, oneSafeLine } from './classify-probe-failure.js';
import type { ModelAccessResult } from './model-access-result.js';
import { type ProbeTimeouts, probeModel } from './probe-model.js';

/** Inputs of {@link checkModelAccess}: the models, and the settings a run would build agents with. */
export interface CheckModelAccessOptions {
  /**
   * The models to check: an id, or an id with the `env` of the codons that use it (a codon's own
   * key or base URL). Each distinct pair is checked once (a hank's codon, loop and sentinel models).
   */
  models: readonly (string | ModelToCheck)[];
  /** The environment agents start from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where Claude Code is pointed instead of `ANTHROPIC_BASE_URL` (the run's setting). */
  anthropicBaseUrl?: string;
  /** Where every Pi agent is pointed instead of its provider's API (the run's setting). */
  piBaseUrl?: string;
  /** The API family Pi speaks to a base URL (the run's setting). */
  piApi?: string;
  /** SIGTERM → SIGKILL grace when a probe is stopped (default 5000 ms). */
  killGraceMs?: number;
  /** Model ids, aliases and prices (default the built-in catalog). */
  catalog?: ModelCatalog;
  /** How long each request may take (defaults: idle 30 s, hard 90 s, Claude Code's API 20 s). */
  timeouts?: Partial<ProbeTimeouts>;
  /** Told before each model's request (a progress line). */
  onProgress?: (model: string, index: number, total: number) => void;
  /** The adapters installed (default: found beside the runtime). Tests replace it. */
  installed?: readonly HarnessName[];
  /** How each adapter is loaded (default: as a run loads it). Tests replace it. */
  loaders?: HarnessLoaders;
}

/** A model id and the codon `env` its agent gets (applied last, as a run applies it). */
export interface ModelToCheck {
  model: string;
  env?: Readonly<Record<string, string>>;
}

const DEFAULT_TIMEOUTS: ProbeTimeouts = {
  idleTimeoutMs: 30_000,
  hardTimeoutMs: 90_000,
  apiTimeoutMs: 20_000,
};

/**
 * Checks that each model can be used before a run spends anything on it: the catalog knows the
 * id (else a "did you mean", and no request); the adapter of its harness is installed and
 * starts; its provider's key is set when the provider needs one (else the variable to set, and
 * no request); then ONE minimal request through the real adapter, built as a run builds it
 * (the same loaders and settings), in a temporary directory removed afterwards. The request's
 * outcome is sorted into a refused key, an endpoint that does not answer (naming the base URL and
 * the setting that chose it), a model the provider does not serve, or another failure. Models are
 * checked one at a time, one result per distinct model and env, in the order first named. Never
 * rejects for a model's problem: each is a result.
 */
export async function checkModelAccess(
  options: CheckModelAccessOptions,
): Promise<ModelAccessResult[]> {
  const catalog = options.catalog ?? defaultModelCatalog;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const settings: HarnessSettings = {
    env: options.env ?? process.env,
    killGraceMs: options.killGraceMs ?? 5000,
    // A probe must fail at once: Pi's own retries would hide the first answer for seconds.
    piRetries: false,
    ...(options.anthropicBaseUrl !== undefined && { anthropicBaseUrl: options.anthropicBaseUrl }),
    ...(options.piBaseUrl !== undefined && { piBaseUrl: options.piBaseUrl }),
    ...(options.piApi !== undefined && { piApi: options.piApi }),
  };
  const installed = options.installed ?? installedHarnesses();
  const scratch = await mkdtemp(join(tmpdir(), 'hankweave-doctor-pi-'));
  const loaders: HarnessLoaders = options.loaders ?? {
    'claude-code': claudeCodeLoader(settings, catalog),
    pi: piLoader(settings, catalog, scratch),
  };
  const harnesses = new Map<HarnessName, Promise<AgentHarness>>();
  const results: ModelAccessResult[] = [];
  try {
    const models = distinct(options.models);
    for (const [index, entry] of models.entries()) {
      options.onProgress?.(entry.model, index, models.length);
      results.push(
        await checkOne(entry, { catalog, settings, installed, loaders, harnesses, timeouts }),
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
  return results;
}

interface CheckContext {
  catalog: ModelCatalog;
  settings: HarnessSettings;
  installed: readonly HarnessName[];
  loaders: HarnessLoaders;
  harnesses: Map<HarnessName, Promise<AgentHarness>>;
  timeouts: ProbeTimeouts;
}

/** Each model id once per distinct codon env, in the order first named. */
function distinct(models: readonly (string | ModelToCheck)[]): ModelToCheck[] {
  const seen = new Map<string, ModelToCheck>();
  for (const entry of models) {
    const check = typeof entry === 'string' ? { model: entry } : entry;
    const env = Object.entries(check.env ?? {}).sort(([a], [b]) => a.localeCompare(b));
    const key = JSON.stringify([check.model, env]);
    if (!seen.has(key)) seen.set(key, check);
  }
  return [...seen.values()];
}

async function checkOne(entry: ModelToCheck, context: CheckContext): Promise<ModelAccessResult> {
  const { model, env: codonEnv } = entry;
  const known = checkModelId(model, context.catalog, HARNESS_NAMES);
  if (!known.ok) {
    return {
      model,
      status: 'unknown-model',
      summary: known.message,
      fix: known.suggestion
        ? `use ${JSON.stringify(known.suggestion)} (or another id the catalog lists) in place of ${JSON.stringify(model)}`
        : `use a model id the catalog lists in place of ${JSON.stringify(model)}`,
      ...(known.suggestion !== undefined && { suggestion: known.suggestion }),
    };
  }
  const selection = selectHarness(model, context.catalog);
  const base = { model, harness: selection.harness, provider: selection.provider };
  const packageName = ADAPTER_PACKAGES[selection.harness];
  const notInstalled = (): ModelAccessResult => ({
    ...base,
    status: 'not-installed',
    summary: `it runs on the ${selection.harness} harness, which is not installed`,
    fix: `install it: npm install ${packageName}`,
  });
  const load = context.loaders[selection.harness];
  if (!context.installed.includes(selection.harness) || !load) return notInstalled();
  const target = accessTarget(selection, context.settings, codonEnv);
  const where = {
    keyVariable: target.keyVariable,
    endpointSetting: target.endpointSetting,
    ...(target.endpoint !== undefined && { endpoint: target.endpoint }),
  };
  if (!target.credentials) {
    const names = target.missing ?? [target.keyVariable];
    return {
      ...base,
      ...where,
      status: 'no-key',
      summary: `no key for ${selection.provider}: ${names.filter((n) => !n.endsWith('_BASE_URL')).join(' or ')} is not set`,
      fix: noKeyFix(selection.harness, target.keyVariable, names),
    };
  }
  let harness: AgentHarness;
  try {
    let loading = context.harnesses.get(selection.harness);
    if (!loading) {
      loading = load();
      context.harnesses.set(selection.harness, loading);
    }
    harness = await loading;
  } catch (error) {
    if (errnoCode(error) === 'ERR_MODULE_NOT_FOUND') return notInstalled();
    return launchFailed(base, where, error, packageName);
  }
  const probe = await probeModel(harness, model, context.timeouts, codonEnv);
  if (!probe.started) return launchFailed(base, where, probe.error, packageName);
  const { outcome } = probe;
  const failed =
    outcome.failureReason !== undefined || outcome.killed || outcome.timedOut || probe.hardTimeout;
  if (!failed) {
    return {
      ...base,
      ...where,
      status: 'ok',
      summary: 'OK',
      latencyMs: probe.latencyMs,
      costUsd: outcome.finalCost,
    };
  }
  const text =
    outcome.errorResultText ??
    outcome.failureReason?.message ??
    (probe.hardTimeout
      ? `no answer within ${Math.round(context.timeouts.hardTimeoutMs / 1000)} s`
      : outcome.timedOut
        ? `the agent was silent for ${Math.round(context.timeouts.idleTimeoutMs / 1000)} s`
        : 'the agent stopped without an answer');
  const timedOut = outcome.timedOut || probe.hardTimeout;
  return failedRequest(base, where, target, classifyProbeFailure({ text, timedOut }), text, probe);
}

function failedRequest(
  base: Pick<ModelAccessResult, 'model' | 'harness' | 'provider'>,
  where: Pick<ModelAccessResult, 'keyVariable' | 'endpoint' | 'endpointSetting'>,
  target: AccessTarget,
  kind: ReturnType<typeof classifyProbeFailure>,
  text: string,
  probe: { latencyMs: number },
): ModelAccessResult {
  const error = oneSafeLine(text);
  const common = { ...base, ...where, error, latencyMs: probe.latencyMs };
  const provider = base.provider ?? 'the provider';
  const at = endpointPhrase(target, provider);
  switch (kind) {
    case 'bad-key':
      return {
        ...common,
        status: 'bad-key',
        summary: `${at} refused the key in ${target.keyVariable}: ${error}`,
        fix: badKeyFix(target),
      };
    case 'unreachable':
      return {
        ...common,
        status: 'unreachable',
        summary: `cannot reach ${at}: ${error}`,
        fix: unreachableFix(target),
      };
    case 'model-not-served':
      return {
        ...common,
        status: 'model-not-served',
        summary: `${at} does not serve ${JSON.stringify(base.model)}: ${error}`,
        fix: `use a model this provider serves (its model list), or check that the base URL is its API's`,
      };
    default:
      return {
        ...common,
        status: 'failed',
        summary: `the request failed: ${error}`,
        fix: 'fix what the error names, then check again',
      };
  }
}

function launchFailed(
  base: Pick<ModelAccessResult, 'model' | 'harness' | 'provider'>,
  where: Pick<ModelAccessResult, 'keyVariable' | 'endpoint' | 'endpointSetting'>,
  error: unknown,
  packageName: string,
): ModelAccessResult {
  const message = oneSafeLine(error instanceof Error ? error.message : String(error));
  return {
    ...base,
    ...where,
    status: 'launch-failed',
    summary: `the ${base.harness} harness did not start: ${message}`,
    fix: `do what the error says, or reinstall ${packageName}`,
    error: message,
  };
}

function noKeyFix(harness: HarnessName, keyVariable: string, names: readonly string[]): string {
  if (harness === 'claude-code') {
    return 'set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or log in with `claude login`';
  }
  const url = names.find((name) => name.endsWith('_BASE_URL'));
  return `set ${keyVariable}${url !== undefined ? ` (or name a local server in ${url})` : ''}`;
}
