import type { FileHandle } from 'node:fs/promises';
import * as nodeFs from 'node:fs/promises';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JournalFs } from '../src/internal/fs.js';

const fixtures = new URL('./fixtures/', import.meta.url);

/** A temporary directory, removed by `cleanup()`. */
export async function tempDir(): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'journal-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Copies `test/fixtures/<name>` to a fresh temporary directory (fixtures never change). */
export async function useFixture(name: string): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const temp = await tempDir();
  await cp(new URL(name, fixtures), temp.dir, { recursive: true });
  return temp;
}

/** Counters and switches of {@link faultyFs}. */
export interface FaultControl {
  writes: number;
  syncs: number;
  /** Fail the next N writes (after writing `partialBytes` of the buffer, to leave a torn line). */
  failWrites: number;
  partialBytes: number;
  failSyncs: number;
}

/** The real fs, with file-handle writes and fsyncs counted and failing on demand. */
export function faultyFs(): { fs: JournalFs; control: FaultControl } {
  const control: FaultControl = {
    writes: 0,
    syncs: 0,
    failWrites: 0,
    partialBytes: 0,
    failSyncs: 0,
  };
  const wrap = (handle: FileHandle): FileHandle =>
    new Proxy(handle, {
      get(target, property) {
        if (property === 'write') {
          return async (buffer: Buffer | string, ...rest: unknown[]) => {
            control.writes += 1;
            if (control.failWrites > 0) {
              control.failWrites -= 1;
              if (control.partialBytes > 0 && Buffer.isBuffer(buffer)) {
                await target.write(buffer.subarray(0, control.partialBytes));
              }
              throw Object.assign(new Error('injected write failure'), { code: 'EIO' });
            }
            return (target.write as (...args: unknown[]) => unknown)(buffer, ...rest);
          };
        }
        if (property === 'sync') {
          return async () => {
            control.syncs += 1;
            if (control.failSyncs > 0) {
              control.failSyncs -= 1;
              throw Object.assign(new Error('injected fsync failure'), { code: 'EIO' });
            }
            return target.sync();
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const fs: JournalFs = {
    ...nodeFs,
    open: (async (...args: Parameters<typeof nodeFs.open>) =>
      wrap(await nodeFs.open(...args))) as typeof nodeFs.open,
  };
  return { fs, control };
}
