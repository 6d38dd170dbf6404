import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { FakeHarness } from '@hankweave/harness/testing';
import { createRuntime } from '@hankweave/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeWorld, startFakeWorld } from '../test/server-world.js';
import { connectHankweave } from './connect-hankweave.js';
import { startWebSocketServer } from './websocket-server.js';

// Moved from @hankweave/runtime with the server (issue 33): the runtime's lifecycle test of a port
// in use, and the outputs test of `server.ready`.

const worlds: FakeWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.dispose();
});
const world = async (options: Parameters<typeof startFakeWorld>[0] = {}) => {
  const created = await startFakeWorld(options);
  worlds.push(created);
  return created;
};

describe('startWebSocketServer()', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir('server-ready-');
    mkdirSync(join(dir.path, 'data'));
    writeFileSync(join(dir.path, 'data', 'notes.txt'), 'user data');
  });
  afterEach(() => dir.cleanup());

  it('fails to listen on a port in use with SERVER_LISTEN_FAILED, naming the port', async () => {
    const { runtime } = await world();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startWebSocketServer(runtime, { port })).rejects.toMatchObject({
        code: 'SERVER_LISTEN_FAILED',
        details: { port },
      });
    } finally {
      blocker.close();
    }
  });

  it('server.ready carries the output directory (reference §3.3)', async () => {
    const runtime = createRuntime({
      hank: {
        meta: { name: 'outputs', version: '1.0.0' },
        hank: [
          {
            id: 'a',
            name: 'Codon a',
            model: 'sonnet',
            continuationMode: 'fresh',
            promptText: 'Do a.',
          },
        ],
      },
      hankDir: dir.path,
      dataPath: join(dir.path, 'data'),
      executionBaseDir: join(dir.path, 'executions'),
      harness: new FakeHarness(),
      autostart: false,
      outputDirectory: 'relative-out',
    });
    await runtime.start();
    try {
      const server = await startWebSocketServer(runtime);
      const client = await connectHankweave(server.url, { token: server.token });
      expect(client.ready.outputDirectory).toBe(resolve('relative-out'));
      await client.close();
    } finally {
      await runtime.close();
    }
  });
});
