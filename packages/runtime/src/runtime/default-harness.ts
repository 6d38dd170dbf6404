import { createRequire } from 'node:module';
import { join } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';
import type { AgentHarness, AgentSession, AgentStartOptions } from '@hankweave/harness';
import {
  HARNESS_NAMES,
  type HarnessName,
  type HarnessSelection,
  type ModelCatalog,
  selectHarness,
} from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import type { RuntimeSettings } from './runtime-context.js';

type ClaudeCodeModule = typeof import('@hankweave/claude-code');
type PiModule = typeof import('@hankweave/pi');

/**
 * The settings an adapter is built from: the part of a run's settings the loaders read, so a
 * check outside a run (`checkModelAccess`) builds the harness exactly as a run does.
 */
export type HarnessSettings = Pick<
  RuntimeSettings,
  'env' | 'killGraceMs' | 'anthropicBaseUrl' | 'piBaseUrl' | 'piRetries' | 'piApi'
>;

/**
 * How to load each agent adapter. A loader rejects with `ERR_MODULE_NOT_FOUND` when its package
 * is not installed; a harness without a loader counts as not installed.
 */
export type HarnessLoaders = Partial<Record<HarnessName, () => Promise<AgentHarness>>>;

/** The npm package of each adapter (what to install when one is missing). */
export const ADAPTER_PACKAGES: Readonly<Record<HarnessName, string>> = {
  'claude-code': '@hankweave/claude-code',
  pi: '@hankweave/pi',
};

/**
 * The adapters installed beside this package (found, not loaded), for the hank check: a codon
 * model that none of them runs is refused before anything starts. Both are optional peers.
 */
export function installedHarnesses(
  resolvePackage: (name: string) => string = createRequire(import.meta.url).resolve,
): HarnessName[] {
  return HARNESS_NAMES.filter((name) => {
    try {
      resolvePackage(ADAPTER_PACKAGES[name]);
      return true;
    } catch {
      return false;
    }
  });
}

/** Loads Claude Code from `@hankweave/claude-code` (an optional peer of this package). */
export function claudeCodeLoader(
  settings: HarnessSettings,
  models: ModelCatalog,
  importAdapter: () => Promise<ClaudeCodeModule> = () => import('@hankweave/claude-code'),
): () => Promise<AgentHarness> {
  return async () => {
    const adapter = await importAdapter();
    return new adapter.ClaudeCodeHarness({
      baseEnv: settings.env,
      killGraceMs: settings.killGraceMs,
      models,
      ...(settings.anthropicBaseUrl ? { anthropicBaseUrl: settings.anthropicBaseUrl } : {}),
    });
  };
}

/**
 * Loads Pi from `@hankweave/pi` (an optional peer of this package). `agentDir` holds Pi's
 * sessions: it must outlive one run so that a `continue-previous` codon of a later run (a resumed
 * execution) finds the session it continues, hence one per execution, not one per run.
 */
export function piLoader(
  settings: HarnessSettings,
  models: ModelCatalog,
  agentDir: string,
  importAdapter: () => Promise<PiModule> = () => import('@hankweave/pi'),
): () => Promise<AgentHarness> {
  return async () => {
    const adapter = await importAdapter();
    return adapter.createPiHarness({
      baseEnv: settings.env,
      killGraceMs: settings.killGraceMs,
      models,
      agentDir,
      ...(settings.piBaseUrl ? { baseUrl: settings.piBaseUrl } : {}),
      ...(settings.piRetries !== undefined && { retries: settings.piRetries }),
      ...(settings.piApi !== undefined && { api: settings.piApi }),
    });
  };
}

/** The directory of an execution's Pi sessions: `.hankweave/pi/`. */
export function piAgentDir(hankweaveDir: string): string {
  return join(hankweaveDir, 'pi');
}

/** The loaders of every adapter this runtime knows, for the execution in `hankweaveDir`. */
export function defaultHarnessLoaders(
  settings: RuntimeSettings,
  models: ModelCatalog,
  hankweaveDir: string,
): HarnessLoaders {
  return {
    'claude-code': claudeCodeLoader(settings, models),
    pi: piLoader(settings, models, piAgentDir(hankweaveDir)),
  };
}

/**
 * The default harness: each codon runs on the adapter `selectHarness` picks for its model (reference
 * §1.9): Claude Code for Anthropic models, Pi for the others. The adapters are optional peers of
 * this package, loaded (dynamic `import()`) only when no harness is passed, so an embedder with
 * its own harness never installs an agent; a codon whose adapter is not installed fails when it
 * starts.
 *
 * @throws {RuntimeError} RUNTIME_HARNESS_UNAVAILABLE when no adapter is installed at all.
 */
export async function loadDefaultHarness(
  models: ModelCatalog,
  loaders: HarnessLoaders,
): Promise<AgentHarness> {
  const installed = new Map<HarnessName, AgentHarness>();
  let missing: unknown;
  for (const name of HARNESS_NAMES) {
    const load = loaders[name];
    if (!load) continue;
    try {
      installed.set(name, await load());
    } catch (cause) {
      if (errnoCode(cause) !== 'ERR_MODULE_NOT_FOUND') throw cause;
      missing ??= cause;
    }
  }
  if (installed.size === 0) {
    throw new RuntimeError(
      'RUNTIME_HARNESS_UNAVAILABLE',
      'No agent harness: install @hankweave/claude-code (npm install @hankweave/claude-code) to run Claude Code, and @hankweave/pi for models that are not Anthropic, or pass `harness` to createRuntime',
      { cause: missing },
    );
  }
  return new ModelRoutingHarness(installed, models);
}

/** Starts each attempt on the installed adapter its model selects. */
class ModelRoutingHarness implements AgentHarness {
  readonly name: string;

  constructor(
    private readonly installed: ReadonlyMap<HarnessName, AgentHarness>,
    private readonly models: ModelCatalog,
  ) {
    this.name = [...installed.keys()].join('+');
  }

  /**
   * @throws {RuntimeError} RUNTIME_HARNESS_UNAVAILABLE when the model's adapter is not installed
   * (the runtime fails the codon with this message).
   */
  async start(options: AgentStartOptions): Promise<AgentSession> {
    const selection = selectHarness(options.model, this.models);
    const adapter = this.installed.get(selection.harness);
    if (!adapter) {
      throw new RuntimeError(
        'RUNTIME_HARNESS_UNAVAILABLE',
        unavailableMessage(options, selection),
        {
          details: {
            codonId: options.codonId,
            model: options.model,
            harness: selection.harness,
            provider: selection.provider,
          },
        },
      );
    }
    return adapter.start(options);
  }
}

function unavailableMessage(options: AgentStartOptions, selection: HarnessSelection): string {
  const model = JSON.stringify(options.model);
  if (selection.harness === 'claude-code') {
    return `Codon ${options.codonId}: the model ${model} runs on Claude Code, which is not installed; install it (npm install @hankweave/claude-code)`;
  }
  const why = selection.forced ? 'asks for the Pi harness' : `is a ${selection.provider} model`;
  return `Codon ${options.codonId}: the model ${model} ${why} and runs on the Pi harness, which is not installed; install it (npm install @hankweave/pi), or give this codon an Anthropic model such as "sonnet"`;
}
