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

/**
 * How to load each agent adapter. A loader rejects with `ERR_MODULE_NOT_FOUND` when its package
 * is not installed; a harness without a loader counts as not installed.
 */
export type HarnessLoaders = Partial<Record<HarnessName, () => Promise<AgentHarness>>>;

/** Loads Claude Code from `@hankweave/claude-code` (an optional peer of this package). */
export function claudeCodeLoader(
  settings: RuntimeSettings,
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
 * The default harness: each codon runs on the adapter `selectHarness` picks for its model (reference
 * §1.9): Claude Code for Anthropic models, Pi for the others. The adapters are optional peers of
 * this package, loaded (dynamic `import()`) only when no harness is passed, so an embedder with
 * its own harness never installs an agent. Only Claude Code has an adapter so far (the Pi adapter
 * is issue 21's next step): a codon whose adapter is not installed fails when it starts.
 *
 * @throws {RuntimeError} RUNTIME_HARNESS_UNAVAILABLE when no adapter is installed at all.
 */
export async function loadDefaultHarness(
  settings: RuntimeSettings,
  models: ModelCatalog,
  loaders: HarnessLoaders = { 'claude-code': claudeCodeLoader(settings, models) },
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
      'No agent harness: install @hankweave/claude-code (npm install @hankweave/claude-code) to run Claude Code, or pass `harness` to createRuntime',
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
  return `Codon ${options.codonId}: the model ${model} ${why} and runs on the Pi harness, which is not installed yet (issue 21); give this codon an Anthropic model such as "sonnet", or pass a harness that runs ${model} to createRuntime`;
}
