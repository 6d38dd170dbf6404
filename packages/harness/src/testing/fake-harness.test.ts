import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { createModelCatalog, defaultModelCatalog } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent-event.js';
import type { AgentStartOptions } from '../agent-harness.js';
import { HarnessError } from '../errors.js';
import { FakeHarness } from './fake-harness.js';

async function startOptions(
  overrides: Partial<AgentStartOptions> = {},
): Promise<AgentStartOptions> {
  const dir = (await makeTempDir('hw-fake-')).path;
  return {
    codonId: 'c#0',
    runId: 'r1',
    model: 'claude-sonnet-4-5',
    prompt: 'go',
    cwd: dir,
    logPath: join(dir, 'c#0-claude.log'),
    ...overrides,
  };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

afterEach(cleanupTempDirs);

describe('FakeHarness', () => {
  it('runs a default conversation through the real writer and parser, and records the start', async () => {
    const harness = new FakeHarness();
    const options = await startOptions({ resumeSessionId: 'prev' });
    const session = await harness.start(options);
    const events = await collect(session.events);
    const outcome = await session.outcome;
    expect(harness.starts).toEqual([options]);
    expect(events.map((event) => event.type)).toEqual([
      'session.started',
      'assistant.message.counted',
      'token.usage',
      'assistant.action',
      'result',
      'token.usage',
    ]);
    expect(outcome).toMatchObject({ exitCode: 0, resultReceived: true, assistantMessageCount: 1 });
    expect(outcome.finalCost).toBeCloseTo(18e-6, 12);
    expect((await readFile(options.logPath, 'utf8')).split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('plays scenarios with tool calls and a disguised error, per start', async () => {
    const harness = new FakeHarness({
      script: (_options, index) =>
        index === 0
          ? {
              scenario: {
                turns: [
                  {
                    thinking: 'hm',
                    text: 'writing',
                    toolUse: { name: 'Write', input: { file_path: 'a' }, result: 'ok' },
                    usage: { inputTokens: 100, outputTokens: 10 },
                  },
                  { text: 'done' },
                ],
                result: { successIsError: 'API Error: 529 Overloaded' },
              },
            }
          : { scenario: { result: 'none' } },
    });
    const first = await harness.start(await startOptions());
    const events = await collect(first.events);
    expect(events.filter((event) => event.type === 'tool.result')).toHaveLength(1);
    expect(await first.outcome).toMatchObject({
      exitCode: 1,
      failureReason: { type: 'api-error', retriable: true },
      finalTokens: { inputTokens: 101, outputTokens: 11 },
    });
    const second = await (await harness.start(await startOptions())).outcome;
    expect(second.failureReason?.message).toBe(
      'Codon process exited without a result message (exit code 1)',
    );
  });

  it('prices the fake conversation with the models option', async () => {
    const sonnet = defaultModelCatalog.resolve('claude-sonnet-4-5');
    if (!sonnet) throw new Error('the default catalog knows claude-sonnet-4-5');
    const models = createModelCatalog([
      { ...sonnet, price: { input: 1, output: 1, cacheWrite: 0, cacheRead: 0 } },
    ]);
    const session = await new FakeHarness({ models }).start(await startOptions());
    const events = await collect(session.events);
    // One turn of 1 input and 1 output token: 2 USD per million at this price.
    expect((await session.outcome).finalCost).toBeCloseTo(2e-6, 12);
    expect(events.filter((event) => event.type === 'warning')).toEqual([]);
  });

  it('times out a hanging agent with the idle watchdog', async () => {
    const harness = new FakeHarness({ script: { scenario: { result: 'none' }, hang: true } });
    const options = await startOptions({ idleTimeoutMs: 50 });
    const outcome = await (await harness.start(options)).outcome;
    expect(outcome).toMatchObject({
      timedOut: true,
      killed: false,
      failureReason: { type: 'timeout', retriable: true },
    });
    const last = (await readFile(options.logPath, 'utf8')).trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(last)).toMatchObject({
      type: 'result',
      subtype: 'error',
      is_error: true,
      num_turns: 0,
    });
  });

  it('kills a hanging agent on kill() and on abort', async () => {
    const harness = new FakeHarness({ script: { hang: true } });
    const session = await harness.start(await startOptions());
    await session.kill('budget');
    expect(await session.outcome).toMatchObject({ killed: true, signal: 'SIGTERM' });
    const controller = new AbortController();
    const aborted = await harness.start(await startOptions({ signal: controller.signal }));
    controller.abort();
    expect((await aborted.outcome).killed).toBe(true);
  });

  it('throws the scripted start error and rejects bad options', async () => {
    const error = new HarnessError('HARNESS_SPAWN_FAILED', 'scripted');
    await expect(
      new FakeHarness({ script: { startError: error } }).start(await startOptions()),
    ).rejects.toBe(error);
    await expect(
      new FakeHarness().start(await startOptions({ codonId: '' })),
    ).rejects.toMatchObject({ code: 'HARNESS_INVALID_OPTIONS' });
    await expect(
      new FakeHarness().start(await startOptions({ idleTimeoutMs: 0 })),
    ).rejects.toMatchObject({ code: 'HARNESS_INVALID_OPTIONS' });
  });

  it.runIf(process.platform === 'linux')(
    'keeps parsing when the log cannot be written, and reports the crash as the failure',
    async () => {
      const harness = new FakeHarness();
      const session = await harness.start(await startOptions({ logPath: '/dev/full' }));
      const events = await collect(session.events);
      expect(events.some((event) => event.type === 'result')).toBe(true);
      // Even after a success: the log is the record of the attempt, and it is incomplete.
      const outcome = await session.outcome;
      expect(outcome.resultReceived).toBe(true);
      expect(outcome.failureReason).toMatchObject({
        type: 'unknown',
        retriable: false,
        errno: 'ENOSPC',
      });
      expect(outcome.failureReason?.message).toContain(
        'The disk is full (ENOSPC) writing /dev/full',
      );
    },
  );
});
