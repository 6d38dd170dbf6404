import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { describeStateStoreConformance } from './testing.js';

// Each test's `.hankweave` directory, inside a temp dir of its own.
const roots = new Map<string, TempDir>();
const createDir = async (): Promise<string> => {
  const root = await makeTempDir('hankweave-state-');
  const dir = join(root.path, '.hankweave');
  roots.set(dir, root);
  await mkdir(dir);
  return dir;
};
const destroyDir = async (dir: string): Promise<void> => {
  await roots.get(dir)?.cleanup();
  roots.delete(dir);
};

describeStateStoreConformance({
  name: 'real fs in a tmp dir',
  createDir,
  destroyDir,
  capabilities: { faultInjection: true, posixModes: true },
});

// The same suite through the fault-injecting wrapper with no fault armed: it must be transparent.
describeStateStoreConformance({
  name: 'faulty fs (unarmed)',
  createDir,
  destroyDir,
  fs: createFaultyFs(),
  capabilities: { faultInjection: true, posixModes: true },
});
