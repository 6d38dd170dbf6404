import { type Fs, type FsFileHandle, nodeFs } from '@hankweave/durable-io';

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
} as unknown as FsFileHandle;

const isWriteFlag = (flags: unknown): boolean =>
  typeof flags === 'string' ? /[wax+]/.test(flags) : typeof flags === 'number' && flags !== 0;

/**
 * The file system the CLI opens a checkpoint repository with for inspection: reads go to disk,
 * every write is dropped. `CheckpointEngine.open` tidies up what a killed writer left (lock files,
 * temp objects); against a live runtime that would delete the writer's in-flight files, so the
 * inspecting commands (checkpoints, diff, status) must never write. Every method is listed (no
 * spread of `nodeFs`): a method added to `Fs` must be sorted into reads or writes here.
 */
export const readOnlyFs: Fs = {
  readFile: nodeFs.readFile,
  stat: nodeFs.stat,
  lstat: nodeFs.lstat,
  readdir: nodeFs.readdir,
  readlink: nodeFs.readlink,
  readdirSync: nodeFs.readdirSync,
  lstatSync: nodeFs.lstatSync,
  statSync: nodeFs.statSync,
  readFileSync: nodeFs.readFileSync,
  open: async (path, flags, mode) =>
    isWriteFlag(flags) ? droppedHandle : nodeFs.open(path, flags, mode),
  writeFile: nothing,
  appendFile: nothing,
  link: nothing,
  copyFile: nothing,
  utimes: nothing,
  mkdir: nothing,
  rmdir: nothing,
  rm: nothing,
  unlink: nothing,
  symlink: nothing,
  rename: nothing,
  chmod: nothing,
};
