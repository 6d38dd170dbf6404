import * as nodeFs from 'node:fs/promises';

/** The part of a `node:fs/promises` `FileHandle` the store uses. */
export interface StateFileHandle {
  writeFile(data: string | Uint8Array): Promise<void>;
  /** fsync(2): resolves once the file's data and metadata are on stable storage. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** A directory entry as returned by `readdir(path, {withFileTypes: true})`. */
export interface StateDirent {
  name: string;
  isDirectory(): boolean;
}

/**
 * The subset of `node:fs/promises` the store and the lock use. Pass your own (an in-memory fs,
 * a fault-injecting one from `@hankweave/state/testing`) through the `fs` option; the default is
 * the real module. Errors must carry Node's `code` (`ENOENT`, `EEXIST`, ...): the store branches
 * on them.
 */
export interface StateFs {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  /** Used with flags `'w'` / `'wx'` for files and `'r'` for directories (to fsync them). */
  open(path: string, flags: string, mode?: number): Promise<StateFileHandle>;
  rename(oldPath: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Hard link; the store falls back to `copyFile` where links are not supported. */
  link(existingPath: string, newPath: string): Promise<void>;
  copyFile(source: string, destination: string): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  readdir(path: string, options: { withFileTypes: true }): Promise<StateDirent[]>;
  stat(path: string): Promise<{ mtimeMs: number }>;
}

/** The real file system. */
export const nodeStateFs: StateFs = nodeFs;

/** The `code` of a Node system error (`ENOENT`, ...), or undefined. */
export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
