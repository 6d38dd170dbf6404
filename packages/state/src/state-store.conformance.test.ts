import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFaultyFs, describeStateStoreConformance } from './testing.js';

const createDir = async (): Promise<string> => {
  const dir = join(await mkdtemp(join(tmpdir(), 'hankweave-state-')), '.hankweave');
  await mkdir(dir);
  return dir;
};
const destroyDir = (dir: string): Promise<void> =>
  rm(join(dir, '..'), { recursive: true, force: true });

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
