import * as nodeFsSync from 'node:fs';
import * as nodeFsPromises from 'node:fs/promises';

/** The promise methods of `node:fs/promises` that hankweave's packages call through an {@link Fs}. */
export const ASYNC_FS_METHODS = [
  'readFile',
  'writeFile',
  'appendFile',
  'open',
  'rename',
  'unlink',
  'link',
  'copyFile',
  'mkdir',
  'rmdir',
  'rm',
  'readdir',
  'stat',
  'lstat',
  'readlink',
  'symlink',
  'chmod',
  'utimes',
] as const;

/**
 * The synchronous methods of `node:fs` an {@link Fs} carries, for directory walks where a
 * thread-pool round trip per call would dominate (`readdirSync` is several times faster there).
 */
export const SYNC_FS_METHODS = ['readdirSync', 'lstatSync', 'statSync', 'readFileSync'] as const;

/** One promise method name of an {@link Fs}. */
export type AsyncFsMethod = (typeof ASYNC_FS_METHODS)[number];
/** One synchronous method name of an {@link Fs}. */
export type SyncFsMethod = (typeof SYNC_FS_METHODS)[number];

/**
 * The one injected file system of every hankweave package (isomorphic-git's idea): the subset of
 * `node:fs/promises` the packages use, plus four synchronous `node:fs` calls for walks. The
 * default is {@link nodeFs}, the real modules. Tests pass a fault-injecting wrapper
 * (`createFaultyFs` from `@hankweave/durable-io/testing`); an inspector passes one that drops
 * writes. Errors must carry Node's `code` (`ENOENT`, `EEXIST`, ...): callers branch on it.
 *
 * To change a few methods, spread the real one: `{ ...nodeFs, rename: myRename }`.
 */
export type Fs = Pick<typeof nodeFsPromises, AsyncFsMethod> & Pick<typeof nodeFsSync, SyncFsMethod>;

/** A file handle as `Fs.open` returns it (`node:fs/promises`' `FileHandle`). */
export type FsFileHandle = nodeFsPromises.FileHandle;

/** The real file system. */
export const nodeFs: Fs = Object.freeze({
  readFile: nodeFsPromises.readFile,
  writeFile: nodeFsPromises.writeFile,
  appendFile: nodeFsPromises.appendFile,
  open: nodeFsPromises.open,
  rename: nodeFsPromises.rename,
  unlink: nodeFsPromises.unlink,
  link: nodeFsPromises.link,
  copyFile: nodeFsPromises.copyFile,
  mkdir: nodeFsPromises.mkdir,
  rmdir: nodeFsPromises.rmdir,
  rm: nodeFsPromises.rm,
  readdir: nodeFsPromises.readdir,
  stat: nodeFsPromises.stat,
  lstat: nodeFsPromises.lstat,
  readlink: nodeFsPromises.readlink,
  symlink: nodeFsPromises.symlink,
  chmod: nodeFsPromises.chmod,
  utimes: nodeFsPromises.utimes,
  readdirSync: nodeFsSync.readdirSync,
  lstatSync: nodeFsSync.lstatSync,
  statSync: nodeFsSync.statSync,
  readFileSync: nodeFsSync.readFileSync,
});

/**
 * True when `fs` is the real file system (or absent), so code may take synchronous fast paths
 * with the same effect; an injected fs must see every call instead.
 */
export const isNodeFs = (fs: Fs | undefined): boolean => fs === undefined || fs === nodeFs;
