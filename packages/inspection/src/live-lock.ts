import { executionLayout } from '@hankweave/runtime/layout';
import { isSameProcessAlive, LOCK_STALE_AFTER_MS, readRuntimeLock } from '@hankweave/state';
import type { RuntimeLock } from '@hankweave/types';
import { regularFilesFs } from './regular-files-fs.js';

/** The lock of a live runtime holding the execution, or undefined when none runs it. */
export async function liveLock(executionDir: string): Promise<RuntimeLock | undefined> {
  const lock = await readRuntimeLock(executionLayout(executionDir).hankweaveDir, {
    fs: regularFilesFs,
  }).catch(() => undefined);
  if (!lock) return undefined;
  const heartbeat = Date.parse(lock.lastHeartbeat);
  const fresh = Number.isNaN(heartbeat) || Date.now() - heartbeat <= LOCK_STALE_AFTER_MS;
  return isSameProcessAlive(lock.pid, lock.processStartTime) && fresh ? lock : undefined;
}
