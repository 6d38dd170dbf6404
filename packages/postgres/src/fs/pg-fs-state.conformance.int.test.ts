import { randomUUID } from 'node:crypto';
import { createFaultyFs } from '@hankweave/durable-io/testing';
import { describeStateStoreConformance } from '@hankweave/state/testing';
import { useDatabase } from '../../test/use-database.js';
import { createPgFs } from './create-pg-fs.js';

const { pool } = await useDatabase('state_conformance');
const fs = createPgFs({ pool, namespace: 'conformance' });

// Each test's `.hankweave` directory, under a root of its own in one shared namespace.
const createDir = async (): Promise<string> => {
  const dir = `/executions/${randomUUID()}/.hankweave`;
  await fs.mkdir(dir, { recursive: true });
  return dir;
};
const destroyDir = async (dir: string): Promise<void> => {
  await fs.rm(dir.replace(/\/\.hankweave$/, ''), { recursive: true, force: true });
};

// faultInjection: the suite wraps this fs in createFaultyFs and crashes or fails every call of a
// save; posixModes is off because the suite checks modes with node:fs's own stat of the path.
describeStateStoreConformance({
  name: 'postgres fs',
  createDir,
  destroyDir,
  fs,
  capabilities: { faultInjection: true },
});

describeStateStoreConformance({
  name: 'postgres fs through the faulty fs (unarmed)',
  createDir,
  destroyDir,
  fs: createFaultyFs({ fs }),
  capabilities: { faultInjection: true },
});
