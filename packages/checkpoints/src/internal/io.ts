import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs';
import * as nodeFsp from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The `node:fs/promises` subset the engine uses. Tests pass a wrapper (see `createFaultyFs` in
 * `@hankweave/checkpoints/testing`) to inject failures; it is forwarded to isomorphic-git too.
 */
export type CheckpointFs = Pick<
  typeof nodeFsp,
  | 'readFile'
  | 'writeFile'
  | 'mkdir'
  | 'rmdir'
  | 'rm'
  | 'unlink'
  | 'stat'
  | 'lstat'
  | 'readdir'
  | 'readlink'
  | 'symlink'
  | 'rename'
  | 'open'
  | 'chmod'
>;

/** The subset of `BigIntStats` the engine reads. */
export type Stat = nodeFs.BigIntStats;

/**
 * File access for the engine. With the real file system it uses synchronous `lstat`/`readdir`
 * where a walk over thousands of paths would otherwise pay a thread-pool round trip per call
 * (measured: ~3.6 µs per sync lstat against ~20 µs async); with an injected fs everything goes
 * through the injected promises so fault injection sees every call.
 */
export class Io {
  readonly fs: CheckpointFs;
  /** True when `fs` is the real module, so the sync fast paths are equivalent. */
  readonly native: boolean;
  readonly durable: boolean;

  constructor(fs: CheckpointFs | undefined, durable: boolean) {
    this.fs = fs ?? nodeFsp;
    this.native = fs === undefined || fs === nodeFsp;
    this.durable = durable;
  }

  /** The value isomorphic-git expects as `fs`. */
  get isoFs(): { promises: CheckpointFs } {
    return { promises: this.fs };
  }

  /** lstat with exact nanosecond times; undefined when the path (or a parent) is missing. */
  async lstat(path: string): Promise<Stat | undefined> {
    if (this.native) return this.lstatSync(path);
    try {
      return await this.fs.lstat(path, { bigint: true });
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Sync lstat; only valid when `native`. */
  lstatSync(path: string): Stat | undefined {
    try {
      return nodeFs.lstatSync(path, { bigint: true, throwIfNoEntry: false });
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  // The methods below return a value directly on the real fs (sync syscalls: no thread-pool hop,
  // ~5-20 µs instead of ~30-60 µs per call here) and a promise otherwise; callers always
  // `await`, which costs a microtask, not a hop. Used where calls are many and small (restore).

  readFileQuick(path: string): Buffer | Promise<Buffer> {
    return this.native ? nodeFs.readFileSync(path) : this.fs.readFile(path);
  }

  readlinkQuick(path: string): Buffer | Promise<Buffer> {
    return this.native
      ? nodeFs.readlinkSync(path, { encoding: 'buffer' })
      : this.fs.readlink(path, { encoding: 'buffer' });
  }

  writeFileQuick(path: string, data: Uint8Array, mode: number): void | Promise<void> {
    return this.native
      ? nodeFs.writeFileSync(path, data, { mode })
      : this.fs.writeFile(path, data, { mode });
  }

  symlinkQuick(target: string, path: string): void | Promise<void> {
    return this.native ? nodeFs.symlinkSync(target, path) : this.fs.symlink(target, path);
  }

  unlinkQuick(path: string): void | Promise<void> {
    return this.native ? nodeFs.unlinkSync(path) : this.fs.unlink(path);
  }

  rmdirQuick(path: string): void | Promise<void> {
    return this.native ? nodeFs.rmdirSync(path) : this.fs.rmdir(path);
  }

  mkdirQuick(path: string): void | Promise<void> {
    if (this.native) {
      nodeFs.mkdirSync(path);
      return;
    }
    return this.fs.mkdir(path).then(() => undefined);
  }

  mkdirp(path: string): void | Promise<void> {
    if (this.native) {
      nodeFs.mkdirSync(path, { recursive: true });
      return;
    }
    return this.fs.mkdir(path, { recursive: true }).then(() => undefined);
  }

  rmQuick(path: string): void | Promise<void> {
    return this.native
      ? nodeFs.rmSync(path, { recursive: true, force: true })
      : this.fs.rm(path, { recursive: true, force: true });
  }

  lstatQuick(path: string): Stat | undefined | Promise<Stat | undefined> {
    return this.native ? this.lstatSync(path) : this.lstat(path);
  }

  /** Directory names, or [] when the directory does not exist. */
  async readdir(path: string): Promise<string[]> {
    try {
      if (this.native) return nodeFs.readdirSync(path);
      return await this.fs.readdir(path);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  /** File contents, or undefined when missing. */
  async readOptional(path: string): Promise<Buffer | undefined> {
    try {
      return await this.readFileQuick(path);
    } catch (error) {
      if (isMissing(error) || (error as { code?: string }).code === 'EISDIR') return undefined;
      throw error;
    }
  }

  /**
   * Writes a new file completely, fsyncs it when durable, then renames it over `path`: a reader
   * (or a crash) sees the old file or the new one, never a torn one. `exclusive` takes git's lock
   * protocol: the temp name is `{path}.lock`, created with O_EXCL so a concurrent git fails.
   * On the real fs this runs as sync syscalls: refs and HEAD are single small files, and under
   * load each thread-pool hop costs more than the syscall.
   */
  async writeAtomic(
    path: string,
    data: Uint8Array | string,
    options: AtomicWriteOptions = {},
  ): Promise<void> {
    const temp = options.exclusive
      ? `${path}.lock`
      : `${path}.tmp-${randomBytes(6).toString('hex')}`;
    const sync = options.sync ?? this.durable;
    if (this.native) {
      writeAtomicSync(path, temp, data, sync, options.mtimeNs);
    } else {
      const handle = await this.fs.open(temp, 'wx', 0o644);
      try {
        await handle.writeFile(data);
        if (options.mtimeNs !== undefined) await handle.utimes(...utimesArgs(options.mtimeNs));
        if (sync) await handle.sync();
      } catch (error) {
        await handle.close().catch(() => undefined);
        await this.fs.unlink(temp).catch(() => undefined);
        throw error;
      }
      await handle.close();
      await this.fs.rename(temp, path);
    }
    if (options.syncDir) await this.syncDir(dirname(path));
  }

  /** fsync a directory so a rename in it survives power loss (no-op when not durable). */
  async syncDir(path: string): Promise<void> {
    if (!this.durable) return;
    if (this.native) {
      const fd = nodeFs.openSync(path, 'r');
      try {
        nodeFs.fsyncSync(fd);
      } finally {
        nodeFs.closeSync(fd);
      }
      return;
    }
    const handle = await this.fs.open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Removes a file if present. */
  async unlinkOptional(path: string): Promise<void> {
    try {
      await this.fs.unlink(path);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}

/** Options of {@link Io.writeAtomic}. */
export interface AtomicWriteOptions {
  /** Use git's `{path}.lock` protocol (fails with EEXIST when another writer holds it). */
  exclusive?: boolean;
  /** Set the file's mtime (ns) before the rename. */
  mtimeNs?: bigint;
  /** fsync the containing directory after the rename. */
  syncDir?: boolean;
  /** fsync the file before the rename; default: the engine's `fsync` option. */
  sync?: boolean;
}

/**
 * Whole microseconds, rounded down: a float of seconds cannot hold nanoseconds, and the
 * racy-git rule needs this time to be no later than the sampled clock.
 */
function utimesArgs(mtimeNs: bigint): [number, number] {
  const seconds = Number((mtimeNs - 1000n) / 1000n) / 1e6;
  return [seconds, seconds];
}

function writeAtomicSync(
  path: string,
  temp: string,
  data: Uint8Array | string,
  sync: boolean,
  mtimeNs?: bigint,
): void {
  const fd = nodeFs.openSync(temp, 'wx', 0o644);
  try {
    nodeFs.writeFileSync(fd, data);
    if (mtimeNs !== undefined) nodeFs.futimesSync(fd, ...utimesArgs(mtimeNs));
    if (sync) nodeFs.fsyncSync(fd);
  } catch (error) {
    nodeFs.closeSync(fd);
    nodeFs.rmSync(temp, { force: true });
    throw error;
  }
  nodeFs.closeSync(fd);
  nodeFs.renameSync(temp, path);
}

/** fsync on the thread pool for a raw descriptor (lets many fsyncs wait in parallel). */
export function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    nodeFs.fsync(fd, (error) => (error ? reject(error) : resolve())),
  );
}

/** True for "no such file" and "a parent is not a directory". */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
