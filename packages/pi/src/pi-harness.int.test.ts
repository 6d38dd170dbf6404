import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import type { AgentStartOptions } from '@hankweave/harness';
import { startScriptedModel } from '@hankweave/scripted-model';
import { describe, expect, it } from 'vitest';
import { createPiHarness } from './index.js';

// What the conformance suite does not cover: the Pi-specific start options, on the real Pi CLI
// against the scripted model.

async function sandbox() {
  const dir = await makeTempDir('hw-pi-harness-');
  const home = join(dir.path, 'home');
  const cwd = join(dir.path, 'work');
  await Promise.all([mkdir(home), mkdir(cwd)]);
  const options = (overrides: Partial<AgentStartOptions> = {}): AgentStartOptions => ({
    codonId: 'codon#0',
    runId: 'run-1',
    model: 'gpt-5.2',
    prompt: 'Say hello. PI_HARNESS_TEST',
    cwd,
    logPath: join(dir.path, 'runs', 'run-1', 'codon#0-claude.log'),
    idleTimeoutMs: 30_000,
    ...overrides,
  });
  return { dir, home, cwd, options };
}

const HELLO = { conversations: [{ turns: [{ content: [{ text: 'hello' }] }] }] };

describe.concurrent('PiHarness', () => {
  it('sends the system prompt append, the forced pi/ model and the base URL to the model', async () => {
    const { dir, home, options } = await sandbox();
    await using model = await startScriptedModel({ script: HELLO });
    try {
      const harness = createPiHarness({
        retries: false,
        baseUrl: `${model.url}/v1`,
        baseEnv: { PATH: process.env.PATH, HOME: home },
      });
      const session = await harness.start(
        options({
          model: 'pi/openrouter/moonshotai/kimi-k2',
          appendSystemPrompt: 'APPENDED_SYSTEM_TEXT',
        }),
      );
      const outcome = await session.outcome;
      expect(outcome).toMatchObject({ exitCode: 0, resultText: 'hello' });
      expect(outcome.failureReason).toBeUndefined();
      const body = model.requests[0]?.body as {
        model: string;
        messages: { role: string; content: unknown }[];
        tools: { function: { name: string } }[];
      };
      expect(body.model).toBe('moonshotai/kimi-k2');
      const system = body.messages.find((m) => m.role === 'system' || m.role === 'developer');
      expect(JSON.stringify(system?.content)).toContain('APPENDED_SYSTEM_TEXT');
      expect(body.tools.map((tool) => tool.function.name).sort()).toEqual(
        ['bash', 'edit', 'find', 'grep', 'ls', 'read', 'write'].sort(),
      );
      // Only Claude-style records in the log: Pi's own lines never reach it.
      const lines = (await readFile(session.logPath, 'utf8')).trim().split('\n');
      const types = lines.map((line) => (JSON.parse(line) as { type: string }).type);
      expect(types).toEqual(['system', 'assistant', 'result']);
    } finally {
      await dir.cleanup();
    }
  });

  it('refuses to start a provider without its key with HARNESS_INVALID_OPTIONS', async () => {
    const { dir, home, options } = await sandbox();
    try {
      const harness = createPiHarness({ baseEnv: { PATH: process.env.PATH, HOME: home } });
      await expect(harness.start(options())).rejects.toMatchObject({
        code: 'HARNESS_INVALID_OPTIONS',
      });
    } finally {
      await dir.cleanup();
    }
  });

  it('refuses a piPath that does not exist with HARNESS_BINARY_NOT_FOUND', async () => {
    const { dir, options } = await sandbox();
    try {
      const harness = createPiHarness({
        piPath: join(dir.path, 'missing-cli.js'),
        baseUrl: 'http://127.0.0.1:9/v1',
        baseEnv: {},
      });
      await expect(harness.start(options())).rejects.toMatchObject({
        code: 'HARNESS_BINARY_NOT_FOUND',
      });
    } finally {
      await dir.cleanup();
    }
  });
});
