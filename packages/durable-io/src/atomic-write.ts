import { randomBytes } from 'node:crypto';
import * as nodeFsSync from 'node:fs';
import { dirname } from 'node:path';
import { hasErrno, NO_DIRECTORY_SYNC_CODES } from './errno.js';
import { type Fs, type FsFileHandle, nodeFs } from './fs.js';

/** Options of {@link writeFileAtomic} and {@link writeFileAtomicSync}. */
export interface AtomicWriteOptions {
  /** The file system to write through (default the real one). Not used by the sync variant. */
  fs?: Fs;
  /** Mode of the new file, before the umask. Default `0o644`; `0o600` for secrets. */
  mode?: number;
  /**
   * fsync the file's data before the rename, so the new name never points at blocks that a power
   * loss could drop. Default true. Turn it off only for caches that are rebuilt when lost.
   */
  fsync?: boolean;
  /**
   * fsync the parent directory after the rename, so the rename itself survives a power loss.
   * Default: the value of `fsync`. File systems that cannot sync a directory are tolerated.
   */
  syncDirectory?: boolean;
  /**
   * Create missing parent directories first; with `fsync`, the directories that gained an entry
   * are fsynced too, so the new path survives a power loss. Default false.
   */
  createParents?: boolean;
  /**
   * git's lock protocol: the temporary file is `{path}.lock`, created with `O_EXCL`, so a second
   * writer (or native git) fails with `EEXIST` instead of racing. Default false: a unique
   * temporary name `{path}.{random}.tmp`, so concurrent writers never share one.
   */
  exclusive?: boolean;
  /**
   * A fixed temporary path (truncated if a crashed writer left it). For files whose temp name is
   * part of an on-disk contract (`state.json.tmp`); wins over `exclusive`.
   */
  tempPath?: string;
  /** Sets the access and modification times (seconds since the epoch) before the rename. */
  times?: number;
}

const DEFAULT_MODE = 0o644;

// `{name}.{12 hex}.tmp`: the unique temporary names of writeFileAtomic.
const TEMP_SUFFIX = /\.[0-9a-f]{12}\.tmp$/;

function tempPathFor(path: string, options: AtomicWriteOptions): { temp: string; flags: string } {
  if (options.tempPath !== undefined) return { temp: options.tempPath, flags: 'w' };
  if (options.exclusive) return { temp: `${path}.lock`, flags: 'wx' };
  return { temp: `${path}.${randomBytes(6).toString('hex')}.tmp`, flags: 'wx' };
}

/**
 * True for a file name that {@link writeFileAtomic} uses as a unique temporary file: what a writer
 * killed mid-write leaves behind, safe to delete once no writer can be running.
 */
export function isAtomicTempName(name: string): boolean {
  return TEMP_SUFFIX.test(name);
}

/**
 * Replaces `path` with `data` so that a reader, or a crash at any step, sees the old content or
 * the new one, never a torn file: write a temporary file beside it, fsync it, rename it over
 * `path`, fsync the directory. When it resolves, the new content is on stable storage (unless
 * `fsync: false`). On failure the temporary file is removed and `path` is unchanged.
 *
 * @throws the file system's error (`EEXIST` with `exclusive` when another writer holds the lock).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFs;
  const fsync = options.fsync ?? true;
  if (options.createParents) await createDirectory(dirname(path), { fs, fsync });
  const { temp, flags } = tempPathFor(path, options);
  const handle: FsFileHandle = await fs.open(temp, flags, options.mode ?? DEFAULT_MODE);
  try {
    await handle.writeFile(data);
    if (options.times !== undefined) await handle.utimes(options.times, options.times);
    if (fsync) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  try {
    await handle.close();
    await fs.rename(temp, path);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  if (options.syncDirectory ?? fsync) await syncDirectory(dirname(path), { fs });
}

/**
 * {@link writeFileAtomic} as synchronous system calls on the real file system: for many small
 * writes on a hot path (git refs), where each thread-pool hop costs more than the syscall.
 */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  options: Omit<AtomicWriteOptions, 'fs'> = {},
): void {
  const fsync = options.fsync ?? true;
  if (options.createParents) nodeFsSync.mkdirSync(dirname(path), { recursive: true });
  const { temp, flags } = tempPathFor(path, options);
  const fd = nodeFsSync.openSync(temp, flags, options.mode ?? DEFAULT_MODE);
  try {
    nodeFsSync.writeFileSync(fd, data);
    if (options.times !== undefined) nodeFsSync.futimesSync(fd, options.times, options.times);
    if (fsync) nodeFsSync.fsyncSync(fd);
  } catch (error) {
    nodeFsSync.closeSync(fd);
    nodeFsSync.rmSync(temp, { force: true });
    throw error;
  }
  nodeFsSync.closeSync(fd);
  try {
    nodeFsSync.renameSync(temp, path);
  } catch (error) {
    nodeFsSync.rmSync(temp, { force: true });
    throw error;
  }
  if (options.syncDirectory ?? fsync) syncDirectorySync(dirname(path));
}

/**
 * `mkdir -p` that, with `fsync` (default true), also fsyncs every directory that gained an entry:
 * the parent of each directory it created. Nothing is synced when `dir` already existed.
 */
export async function createDirectory(
  dir: string,
  options: { fs?: Fs; fsync?: boolean } = {},
): Promise<void> {
  const fs = options.fs ?? nodeFs;
  const first = await fs.mkdir(dir, { recursive: true });
  if (first === undefined || options.fsync === false) return;
  // `first` is the topmost directory created: every parent from `dir`'s up to `first`'s changed.
  const top = dirname(first);
  for (let current = dirname(dir); ; current = dirname(current)) {
    await syncDirectory(current, { fs });
    if (current === top || current === dirname(current)) break;
  }
}

/** fsync(2) of a file or directory by path. */
export async function syncPath(path: string, options: { fs?: Fs } = {}): Promise<void> {
  const handle = await (options.fs ?? nodeFs).open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * fsync(2) of a directory, so the renames and creations in it survive a power loss. A file
 * system that cannot sync directories (`EISDIR`, `EINVAL`, ... on Windows and some mounts) is
 * skipped silently: there is nothing more to do there.
 */
export async function syncDirectory(dir: string, options: { fs?: Fs } = {}): Promise<void> {
  try {
    await syncPath(dir, options);
  } catch (error) {
    if (!hasErrno(error, ...NO_DIRECTORY_SYNC_CODES)) throw error;
  }
}

/** {@link syncDirectory} as synchronous system calls on the real file system. */
export function syncDirectorySync(dir: string): void {
  let fd: number;
  try {
    fd = nodeFsSync.openSync(dir, 'r');
  } catch (error) {
    if (hasErrno(error, ...NO_DIRECTORY_SYNC_CODES)) return;
    throw error;
  }
  try {
    nodeFsSync.fsyncSync(fd);
  } catch (error) {
    if (!hasErrno(error, ...NO_DIRECTORY_SYNC_CODES)) throw error;
  } finally {
    nodeFsSync.closeSync(fd);
  }
}

/** fsync(2) of a raw descriptor on the thread pool, so many can wait in parallel. */
export function fsyncDescriptor(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    nodeFsSync.fsync(fd, (error) => (error ? reject(error) : resolve())),
  );
}
