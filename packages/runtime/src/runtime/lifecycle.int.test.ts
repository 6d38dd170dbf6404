import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeWorld, lettersHank, startFakeWorld } from '../testing/fake-world.js';
import { createRuntime } from './create-runtime.js';

const worlds: FakeWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.dispose();
});
const world = async (options: Parameters<typeof startFakeWorld>[0] = {}) => {
  const created = await startFakeWorld(options);
  worlds.push(created);
  return created;
};

describe('the runtime lifecycle', () => {
  it('refuses commands before start() with RUNTIME_NOT_STARTED, and a second start()', async () => {
    const runtime = createRuntime({ hank: {}, dataPath: '/nonexistent' });
    expect(runtime.phase).toBe('new');
    await expect(runtime.command({ type: 'codon.next' })).rejects.toMatchObject({
      code: 'RUNTIME_NOT_STARTED',
    });
    await expect(runtime.command({ type: 'ping' })).rejects.toMatchObject({
      code: 'RUNTIME_NOT_STARTED',
    });
    const started = await world();
    expect(started.runtime.phase).toBe('idle');
    await expect(started.runtime.start()).rejects.toMatchObject({
      code: 'RUNTIME_ALREADY_STARTED',
    });
    expect(started.runtime.phase).toBe('idle');
  });

  it('closes with exit code 1 when start() fails before the execution is open', async () => {
    const runtime = createRuntime({ hank: { hank: 'not a list' }, dataPath: '/nonexistent' });
    await expect(runtime.start()).rejects.toMatchObject({ code: 'RUNTIME_INVALID_HANK' });
    expect(runtime.phase).toBe('closed');
    expect(await runtime.finished).toEqual({ exitCode: 1, reason: 'error' });
  });

  it('drives while a codon runs, refuses another start, and settles back to idle', async () => {
    const { runtime, events } = await world({ lineDelayMs: 150 });
    await runtime.command({ type: 'codon.next' });
    expect(runtime.phase).toBe('driving');
    await expect(runtime.command({ type: 'codon.next' })).rejects.toMatchObject({
      code: 'RUNTIME_CODON_RUNNING',
    });
    await expect(runtime.command({ type: 'rollback.toLastSuccess' })).rejects.toMatchObject({
      code: 'RUNTIME_CODON_RUNNING',
    });
    await expect(runtime.command({ type: 'checkpoint.list' })).resolves.toMatchObject({
      type: 'checkpoint.list',
    });
    await waitFor(() =>
      events.some(
        (event) => event.type === 'server.idle' && event.data.reason === 'codon-completed',
      ),
    );
    // server.idle is emitted once the phase is idle again: the next command is accepted at once.
    expect(runtime.phase).toBe('idle');
    await expect(runtime.command({ type: 'codon.skip' })).rejects.toMatchObject({
      code: 'RUNTIME_NO_CODON_RUNNING',
    });
    await expect(runtime.command({ type: 'codon.next' })).resolves.toMatchObject({
      data: { codonId: 'b' },
    });
  });

  it('answers commands after shutdown with RUNTIME_SHUTTING_DOWN instead of failing', async () => {
    const { runtime } = await world();
    const exit = await runtime.close();
    expect(exit).toEqual({ exitCode: 0, reason: 'client request' });
    expect(runtime.phase).toBe('closed');
    for (const type of ['codon.start', 'checkpoint.list', 'history.sync'] as const) {
      const command =
        type === 'codon.start' ? { type, data: { codonId: 'a' } } : ({ type } as const);
      await expect(runtime.command(command)).rejects.toMatchObject({
        code: 'RUNTIME_SHUTTING_DOWN',
      });
    }
    await expect(runtime.command({ type: 'ping' })).resolves.toMatchObject({ type: 'ping' });
    // Closing again, gracefully or not, answers with how it ended.
    expect(await runtime.close({ force: true })).toEqual(exit);
  });

  it('ends a graceful shutdown forced by a second request with exit code 1', async () => {
    const { runtime } = await world({ lineDelayMs: 400 });
    await runtime.command({ type: 'codon.next' });
    const graceful = runtime.close();
    expect(runtime.phase).toBe('stopping');
    await expect(runtime.command({ type: 'codon.next' })).rejects.toMatchObject({
      code: 'RUNTIME_SHUTTING_DOWN',
    });
    const forced = runtime.close({ reason: 'SIGINT' });
    expect((await forced).exitCode).toBe(1);
    expect(await graceful).toEqual(await forced);
    expect(runtime.phase).toBe('closed');
  });

  it('closes what start() opened when forced to stop while starting', async () => {
    const first = await world();
    const executionDir = first.runtime.executionDir;
    await first.runtime.close();
    const options = {
      hank: lettersHank(1),
      hankDir: first.root,
      dataPath: join(first.root, 'data'),
      executionDir,
      harness: first.harness,
      autostart: false,
    };
    const starting = createRuntime(options);
    const started = starting.start();
    expect(await starting.close({ force: true })).toEqual({ exitCode: 1, reason: 'force' });
    await started;
    expect(starting.phase).toBe('closed');
    // The lock was released: another runtime can take the execution at once.
    const next = createRuntime(options);
    await next.start();
    expect(next.phase).toBe('idle');
    await next.close();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
