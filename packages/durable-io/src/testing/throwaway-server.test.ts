import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort, throwawayServerStop } from './throwaway-server.js';

/**
 * A node child that runs until killed; `ignoreTerm` makes it shrug off SIGTERM, `drainAfterMs`
 * makes it leave by itself that long after SIGUSR2 (a server whose clients are still leaving).
 */
function server(ignoreTerm: boolean, drainAfterMs?: number) {
  const drain =
    drainAfterMs === undefined
      ? ''
      : `process.on('SIGUSR2', () => setTimeout(() => process.exit(0), ${drainAfterMs}));`;
  const script = `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} ${drain} setInterval(() => {}, 1000); console.log('up');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const up = new Promise((resolve) => child.stdout.once('data', resolve));
  return { child, up, dir: mkdtempSync(join(tmpdir(), 'hw-throwaway-')) };
}

describe('throwawayServerStop', () => {
  it('stops with the graceful signal and removes the directory, once however often called', async () => {
    const { child, up, dir } = server(false);
    await up;
    const stop = throwawayServerStop({ child, dir, stopSignal: 'SIGTERM', graceMs: 5_000 });
    await Promise.all([stop(), stop()]);
    await stop();
    expect(child.signalCode).toBe('SIGTERM');
    expect(existsSync(dir)).toBe(false);
  });

  it('kills a server that ignores the graceful signal once the grace is over', async () => {
    const { child, up, dir } = server(true);
    await up;
    const started = Date.now();
    await throwawayServerStop({ child, dir, stopSignal: 'SIGTERM', graceMs: 300 })();
    expect(child.signalCode).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('throwawayServerStop with a drain', () => {
  it('lets a draining server leave by itself, without the stop signal', async () => {
    const { child, up, dir } = server(false, 100);
    await up;
    const drain = { signal: 'SIGUSR2' as const, ms: 5_000 };
    await throwawayServerStop({ child, dir, drain, stopSignal: 'SIGTERM', graceMs: 5_000 })();
    expect([child.exitCode, child.signalCode]).toEqual([0, null]);
    expect(existsSync(dir)).toBe(false);
  });

  it('sends the stop signal once the drain time is over', async () => {
    const { child, up, dir } = server(false, 60_000);
    await up;
    const started = Date.now();
    const drain = { signal: 'SIGUSR2' as const, ms: 300 };
    await throwawayServerStop({ child, dir, drain, stopSignal: 'SIGTERM', graceMs: 5_000 })();
    expect(child.signalCode).toBe('SIGTERM');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('freeLoopbackPort', () => {
  it('gives a port that can be bound on 127.0.0.1', async () => {
    const port = await freeLoopbackPort();
    const bound = createServer();
    await new Promise<void>((resolve, reject) => {
      bound.once('error', reject);
      bound.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => bound.close(resolve));
    expect(port).toBeGreaterThan(0);
  });
});
