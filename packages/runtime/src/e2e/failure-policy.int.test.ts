import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { writerCodon, writerConversation } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor, waitForEvent } from '../../test/harness-env.js';

const hank = (middle: Record<string, unknown>) => ({
  meta: { name: 'policies', version: '1.0.0' },
  hank: [writerCodon('first'), writerCodon('middle', middle), writerCodon('last')],
});
const script = (failure: Record<string, unknown>, times: number | 'always') => ({
  conversations: [
    writerConversation('first'),
    {
      ...writerConversation('middle'),
      turns: [
        { ...writerConversation('middle').turns[0], fail: failure, times },
        writerConversation('middle').turns[1],
      ],
    },
    writerConversation('last'),
  ],
});
const completions = (events: HankweaveEvent[]) =>
  events
    .filter((event) => event.type === 'codon.completed')
    .map(
      (event) =>
        `${event.data.codonId}:${event.data.success ? 'ok' : 'failed'}${event.data.failureIgnored ? ':ignored' : ''}`,
    );

async function run(
  middle: Record<string, unknown>,
  failure: Record<string, unknown>,
  times: number | 'always',
  options: { headless?: boolean } = {},
) {
  const world = await makeWorld({ hank: hank(middle), script: script(failure, times) });
  const { runtime, events } = runtimeFor(world, { headless: options.headless ?? true });
  await runtime.start();
  return { world, runtime, events };
}

describe('onFailure policies with the real agent', () => {
  it('ignore: the failure is recorded and the hank goes on', async () => {
    const { world, runtime, events } = await run(
      { onFailure: 'ignore' },
      { kind: 'server-error' },
      'always',
    );
    const exit = await runtime.finished;
    await world.close();
    expect(exit.exitCode).toBe(0);
    expect(completions(events)).toEqual(['first:ok', 'middle:failed:ignored', 'last:ok']);
    const failed = runtime.getState().runs[0]?.codons.find((codon) => codon.codonId === 'middle');
    expect(failed).toMatchObject({
      status: 'failed',
      failedDuring: 'running',
      failureReason: { type: 'api-error', retriable: true },
      errorCheckpoint: expect.any(String),
    });
  });

  it('retry: a retriable failure is retried (new record, no rig) and then succeeds', async () => {
    const { world, runtime, events } = await run(
      { onFailure: 'retry', retryConfig: { maxAttempts: 3, delayMs: 50 } },
      { kind: 'overloaded' },
      1,
    );
    const exit = await runtime.finished;
    await world.close();
    expect(exit.exitCode).toBe(0);
    expect(completions(events)).toEqual(['first:ok', 'middle:failed', 'middle:ok', 'last:ok']);
    expect(
      events.some(
        (event) =>
          event.type === 'info' &&
          event.data.message.startsWith('Retrying codon middle (attempt 2/3)'),
      ),
    ).toBe(true);
    const records = runtime
      .getState()
      .runs[0]?.codons.filter((codon) => codon.codonId === 'middle')
      .map((codon) => codon.status);
    expect(records).toEqual(['failed', 'completed']);
  });

  it('abort: a failure that cannot be retried fails the run and stops', async () => {
    const { world, runtime, events } = await run({}, { kind: 'prompt-too-long' }, 'always');
    const exit = await runtime.finished;
    await world.close();
    expect(exit).toEqual({ exitCode: 1, reason: 'codon failure' });
    expect(completions(events)).toEqual(['first:ok', 'middle:failed']);
    expect(runtime.getState().runs[0]).toMatchObject({ status: 'failed' });
  });

  it('abort: a retriable failure waits for a command unless headless', async () => {
    const waiting = await run({}, { kind: 'server-error' }, 'always', { headless: false });
    await waitForEvent(
      waiting.events,
      (event) => event.type === 'server.idle' && event.data.reason === 'codon-completed',
    );
    expect(completions(waiting.events)).toEqual(['first:ok', 'middle:failed']);
    await expect(waiting.runtime.command({ type: 'codon.skip' })).rejects.toMatchObject({
      code: 'RUNTIME_NO_CODON_RUNNING',
    });
    expect((await waiting.runtime.close()).exitCode).toBe(0);
    await waiting.world.close();
    const headless = await run({}, { kind: 'server-error' }, 'always');
    expect((await headless.runtime.finished).exitCode).toBe(1);
    await headless.world.close();
  });
});

describe('shutdown while starting', () => {
  it('waits for start(), then closes everything it opened and releases the lock', async () => {
    const world = await makeWorld({ hank: hank({}), script: script({ kind: 'server-error' }, 1) });
    const { runtime, events } = runtimeFor(world);
    const starting = runtime.start();
    const exit = await runtime.close();
    await starting;
    await world.close();
    expect(exit.reason).toBe('client request');
    expect(events.some((event) => event.type === 'codon.started')).toBe(false);
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    expect(existsSync(join(runtime.executionDir, '.hankweave/runtime.lock'))).toBe(false);
  });
});
