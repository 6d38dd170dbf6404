import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startUiServer, type UiServer } from '../../server/start-ui-server.js';
import { send } from '../ui/http-client.js';

// Issue 31: an execution's metadata names files the dashboard reads (hank.json by `hankPath`);
// a FIFO there (an agent can make one) hung the dashboard API for good. The dashboard reads
// only regular files, and never waits on one it lists.

let server: UiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await cleanupTempDirs();
});

function execution(baseDir: string, name: string, meta: Record<string, unknown>): string {
  const dir = join(baseDir, name);
  mkdirSync(join(dir, '.hankweave'), { recursive: true });
  mkdirSync(join(dir, 'agentRoot'));
  const at = new Date().toISOString();
  writeFileSync(
    join(dir, '.hankweave', 'execution-meta.json'),
    JSON.stringify({
      version: '1.0.0',
      readOnlySourceDataPath: '/data',
      readOnlySourceResolvedDataPath: '/data',
      dataHash: 'abc',
      hankHash: 'def',
      linkType: 'symlink',
      createdAt: at,
      lastUsed: at,
      ...meta,
    }),
  );
  return dir;
}

describe('the dashboard API and FIFOs', () => {
  it('lists executions at once when hank.json or state.json is a FIFO', async () => {
    const temp = await makeTempDir('hw-ui-fifo-');
    const fifo = join(temp.path, 'hank.json');
    execFileSync('mkfifo', [fifo]);
    execution(temp.path, '1700000000000-abcd-abcdef', { hankPath: fifo });
    const second = execution(temp.path, '1700000000001-abcd-abcdef', {
      hankPath: join(temp.path, 'nope', 'hank.json'),
    });
    execFileSync('mkfifo', [join(second, '.hankweave', 'state.json')]);
    execFileSync('mkfifo', [join(second, '.hankweave', 'runtime.lock')]);

    server = await startUiServer({ baseDir: temp.path });
    const origin = new URL(server.url).origin;
    const started = Date.now();
    const answer = await send(origin, '/api/executions', {
      headers: { authorization: `Bearer ${server.token}` },
    });

    expect(answer.status, answer.text).toBe(200);
    const { executions } = answer.json<{ executions: { id: string }[] }>();
    expect(executions.map((entry) => entry.id).sort()).toEqual([
      '1700000000000-abcd-abcdef',
      '1700000000001-abcd-abcdef',
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 15_000);
});
