import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort, throwawayServerStop } from './throwaway-server.js';

/** A node child that runs until killed; `ignoreTerm` makes it shrug off SIGTERM. */
function server(ignoreTerm: boolean) {
  const script = `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000); console.log('up');`;
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
