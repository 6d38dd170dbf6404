import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireRuntimeLock } from '@hankweave/state';
import { afterAll, describe, expect, it } from 'vitest';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

describe('opening an execution another process runs', () => {
  let world: TestWorld;
  afterAll(() => world?.close());

  it('takes runtime.lock before writing anything: no relink, no meta rewrite', async () => {
    world = await makeWorld();
    const executionDir = join(world.root, 'execution');
    const first = runtimeFor(world, { executionDir, autostart: false, preflight: false });
    await first.runtime.start();
    await first.runtime.close();
    const metaPath = join(executionDir, '.hankweave', 'execution-meta.json');
    const metaBefore = readFileSync(metaPath, 'utf8');
    const linkBefore = readlinkSync(join(executionDir, 'agentRoot', 'read_only_data_source'));

    // Another runtime (a worker of the fleet) holds the execution; the data changes meanwhile.
    const holder = await acquireRuntimeLock(join(executionDir, '.hankweave'), {
      heartbeatIntervalMs: 0,
    });
    try {
      writeFileSync(join(world.dataDir, 'late.txt'), 'arrived while the other ran\n');
      const second = runtimeFor(world, { executionDir, force: true, preflight: false });
      await expect(second.runtime.start()).rejects.toMatchObject({ code: 'STATE_LOCKED' });
      expect(readFileSync(metaPath, 'utf8')).toBe(metaBefore);
      expect(readlinkSync(join(executionDir, 'agentRoot', 'read_only_data_source'))).toBe(
        linkBefore,
      );
    } finally {
      await holder.release();
    }
  });
});
