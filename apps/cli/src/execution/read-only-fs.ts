import * as fsp from 'node:fs/promises';
import type { CheckpointFs } from '@hankweave/checkpoints';

const nothing = async (): Promise<undefined> => undefined;

/** A file handle that accepts writes and drops them. */
const droppedHandle = {
  writeFile: nothing,
  write: async () => ({ bytesWritten: 0, buffer: Buffer.alloc(0) }),
  writev: async () => ({ bytesWritten: 0, buffers: [] }),
  utimes: nothing,
  sync: nothing,
  datasync: nothing,
  close: nothing,
  stat: async () => {
    throw Object.assign(new Error('read-only inspection'), { code: 'EROFS' });
  },
};

const isWriteFlag = (flags: unknown): boolean =>
  typeof flags === 'string' ? /[wax+]/.test(flags) : typeof flags === 'number' && flags !== 0;

/**
 * The file system the CLI opens a checkpoint repository with for inspection: reads go to disk,
 * every write is dropped. `CheckpointEngine.open` tidies up what a killed writer left (lock files,
 * temp objects); against a live runtime that would delete the writer's in-flight files, so the
 * inspecting commands (checkpoints, diff, status) must never write.
 */
export const readOnlyFs = {
  readFile: fsp.readFile,
  stat: fsp.stat,
  lstat: fsp.lstat,
  readdir: fsp.readdir,
  readlink: fsp.readlink,
  open: (async (path: Parameters<typeof fsp.open>[0], flags?: string | number, mode?: number) =>
    isWriteFlag(flags) ? droppedHandle : fsp.open(path, flags, mode)) as unknown as typeof fsp.open,
  writeFile: nothing,
  mkdir: nothing,
  rmdir: nothing,
  rm: nothing,
  unlink: nothing,
  symlink: nothing,
  rename: nothing,
  chmod: nothing,
} as unknown as CheckpointFs;
