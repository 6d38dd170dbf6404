import { errnoCode } from '@hankweave/durable-io';
import type { AgentHarness } from '@hankweave/harness';
import type { ModelCatalog } from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import type { RuntimeSettings } from './runtime-context.js';

type ClaudeCodeModule = typeof import('@hankweave/claude-code');

/**
 * The default harness: Claude Code, from `@hankweave/claude-code`. It is an optional peer of this
 * package, loaded only when no harness is passed, so an embedder with its own harness never
 * installs the agent.
 *
 * @throws {RuntimeError} RUNTIME_HARNESS_UNAVAILABLE when the package is not installed.
 */
export async function loadDefaultHarness(
  settings: RuntimeSettings,
  models: ModelCatalog,
  importAdapter: () => Promise<ClaudeCodeModule> = () => import('@hankweave/claude-code'),
): Promise<AgentHarness> {
  let adapter: ClaudeCodeModule;
  try {
    adapter = await importAdapter();
  } catch (cause) {
    if (errnoCode(cause) !== 'ERR_MODULE_NOT_FOUND') throw cause;
    throw new RuntimeError(
      'RUNTIME_HARNESS_UNAVAILABLE',
      'No agent harness: install @hankweave/claude-code (npm install @hankweave/claude-code) to run Claude Code, or pass `harness` to createRuntime',
      { cause },
    );
  }
  return new adapter.ClaudeCodeHarness({
    baseEnv: settings.env,
    killGraceMs: settings.killGraceMs,
    models,
    ...(settings.anthropicBaseUrl ? { anthropicBaseUrl: settings.anthropicBaseUrl } : {}),
  });
}
