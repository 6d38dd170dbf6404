import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptInput } from '@hankweave/scripted-model';
import { startScriptedModel } from '@hankweave/scripted-model';
import type { HankweaveEvent, SentinelState } from '@hankweave/types';
import { SentinelManager, type SentinelManagerOptions } from '../src/index.js';

/** An event as the runtime would route it (data is not validated by observe). */
export function event(type: string, data: Record<string, unknown>, n = 0): HankweaveEvent {
  return {
    id: `evt_${type}_${n}_${Math.random().toString(36).slice(2, 8)}`,
    type,
    timestamp: new Date(1_736_000_000_000 + n).toISOString(),
    data,
  } as unknown as HankweaveEvent;
}

export const action = (content: string, n = 0) =>
  event('assistant.action', { codonId: 'observe#0', action: 'message', content }, n);

export interface Emitted {
  type: string;
  data: Record<string, unknown>;
}

/**
 * A tmp execution dir, a scripted model and a manager wired to both (through Anthropic's
 * variables unless `overrides`, which may be built from the model's URL, say otherwise).
 */
export async function setup(
  script: ScriptInput,
  overrides:
    | Partial<SentinelManagerOptions>
    | ((url: string) => Partial<SentinelManagerOptions>) = {},
  dirs?: { root: string },
) {
  const root = dirs?.root ?? (await mkdtemp(join(tmpdir(), 'sentinels-')));
  const hankDir = join(root, 'hank');
  const hankweaveDir = join(root, 'exec', '.hankweave');
  const agentRoot = join(root, 'exec', 'agentRoot');
  await Promise.all([hankDir, hankweaveDir, agentRoot].map((d) => mkdir(d, { recursive: true })));
  const model = await startScriptedModel({ script });
  const emitted: Emitted[] = [];
  const reports: { states: SentinelState[]; totalCost: number }[] = [];
  const manager = new SentinelManager({
    hankDir,
    hankweaveDir,
    agentRoot,
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'x' },
    emit: (type, data) => emitted.push({ type, data }),
    onStatesChanged: (states, totalCost) => reports.push({ states, totalCost }),
    ...(typeof overrides === 'function' ? overrides(model.url) : overrides),
  });
  return {
    root,
    hankDir,
    hankweaveDir,
    agentRoot,
    model,
    manager,
    emitted,
    reports,
    of: (type: string) => emitted.filter((e) => e.type === type).map((e) => e.data),
    async [Symbol.asyncDispose]() {
      await manager.unload('shutdown');
      await model.close();
      if (!dirs) await rm(root, { recursive: true, force: true });
    },
  };
}

/** A minimal inline config; override any field. */
export function inline(overrides: Record<string, unknown> = {}) {
  return {
    id: 'narrator',
    name: 'Narrator',
    model: 'anthropic/claude-haiku-4-5',
    trigger: { type: 'event', on: ['assistant.action'] },
    execution: { strategy: 'immediate' },
    userPromptText: 'NARRATE <%= it.events.map((e) => e.data.content).join(" | ") %>',
    llmParams: { maxRetries: 0 },
    ...overrides,
  };
}
