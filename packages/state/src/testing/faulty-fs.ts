import { nodeStateFs, type StateFileHandle, type StateFs } from '../fs.js';

/** The operations a {@link FaultyFs} can fail. Handle operations are `writeFile`, `fsync`, `close`. */
export const FS_OPERATIONS = [
  'readFile',
  'open',
  'writeFile',
  'fsync',
  'close',
  'rename',
  'unlink',
  'link',
  'copyFile',
  'mkdir',
  'readdir',
  'stat',
] as const;
export type FsOperation = (typeof FS_OPERATIONS)[number];

/** Where and how to fail. */
export interface Fault {
  /** The operation to fail, or `any` to count every call. */
  failAt: FsOperation | 'any';
  /** Let this many matching calls succeed first (default 0: fail the first one). */
  after?: number;
  /**
   * `throw`: that one call fails with `code` and later calls work (a transient error).
   * `crash`: that call and every later call on this fs are refused, as if the process died at
   * that step; a `writeFile` leaves half of its data behind (a torn write). Default `throw`.
   */
  mode?: 'throw' | 'crash';
  /** Only count calls whose path contains this string. */
  pathIncludes?: string;
  /** The error code of the injected failure (default `EIO`). */
  code?: string;
}

/** One recorded call. */
export interface FsCall {
  op: FsOperation;
  path: string;
  /** True when this call was failed or refused by the fault. */
  failed: boolean;
}

/** A {@link StateFs} that records its calls and fails where told to. */
export interface FaultyFs extends StateFs {
  /** Every call so far, in order. */
  readonly trace: readonly FsCall[];
  /** True once a `crash` fault fired: every call is refused from then on. */
  readonly crashed: boolean;
  /** True once the armed fault fired. */
  readonly faulted: boolean;
  /** Arms a fault; counting starts now. Replaces any armed fault. */
  arm(fault: Fault): void;
  /** Removes the armed fault (a crash stays crashed). */
  disarm(): void;
  /** Clears the trace. */
  clearTrace(): void;
}

/** Options of {@link createFaultyFs}: the fs to wrap (default the real one) and an optional fault. */
export interface FaultyFsOptions extends Partial<Fault> {
  fs?: StateFs;
}

const injected = (code: string, op: FsOperation, path: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: injected fault in ${op} '${path}'`), { code, path });

/**
 * Wraps a file system to inject faults: `createFaultyFs({failAt: 'rename', after: 1, mode:
 * 'crash'})` lets one rename through, then "kills the process" at the second. Without `failAt`
 * it only records calls until {@link FaultyFs.arm} is called.
 */
export const createFaultyFs = (options: FaultyFsOptions = {}): FaultyFs => {
  const base = options.fs ?? nodeStateFs;
  const trace: FsCall[] = [];
  const openHandles = new Set<StateFileHandle>();
  let fault: Fault | undefined;
  let seen = 0;
  let crashed = false;
  let faulted = false;

  const arm = (next: Fault): void => {
    fault = next;
    seen = 0;
    faulted = false;
  };
  if (options.failAt !== undefined) arm({ ...options, failAt: options.failAt });

  const crash = async (): Promise<void> => {
    crashed = true;
    // A dead process's descriptors are closed by the kernel; do the same for the real ones.
    const handles = [...openHandles];
    openHandles.clear();
    await Promise.allSettled(handles.map((handle) => handle.close()));
  };

  /** Decides the fate of one call: run it, fail it, or refuse it. */
  const gate = async (
    op: FsOperation,
    path: string,
    tornWrite?: () => Promise<void>,
  ): Promise<void> => {
    if (crashed) {
      trace.push({ op, path, failed: true });
      throw injected('ECRASHED', op, path);
    }
    const matches =
      fault !== undefined &&
      !faulted &&
      (fault.failAt === 'any' || fault.failAt === op) &&
      (fault.pathIncludes === undefined || path.includes(fault.pathIncludes));
    if (matches && fault !== undefined && seen++ >= (fault.after ?? 0)) {
      faulted = true;
      trace.push({ op, path, failed: true });
      if (fault.mode === 'crash') {
        await tornWrite?.();
        await crash();
        throw injected('ECRASHED', op, path);
      }
      throw injected(fault.code ?? 'EIO', op, path);
    }
    trace.push({ op, path, failed: false });
  };

  const wrapHandle = (handle: StateFileHandle, path: string): StateFileHandle => {
    openHandles.add(handle);
    return {
      writeFile: async (data) => {
        await gate('writeFile', path, async () => {
          const bytes = typeof data === 'string' ? Buffer.from(data) : data;
          await handle.writeFile(bytes.subarray(0, Math.floor(bytes.length / 2)));
        });
        await handle.writeFile(data);
      },
      sync: async () => {
        await gate('fsync', path);
        await handle.sync();
      },
      close: async () => {
        try {
          await gate('close', path);
        } catch (error) {
          // An injected close failure still releases the real descriptor (a crash already did).
          if (openHandles.delete(handle)) await handle.close().catch(() => undefined);
          throw error;
        }
        openHandles.delete(handle);
        await handle.close();
      },
    };
  };

  return {
    get trace() {
      return trace;
    },
    get crashed() {
      return crashed;
    },
    get faulted() {
      return faulted;
    },
    arm,
    disarm: () => {
      fault = undefined;
    },
    clearTrace: () => {
      trace.length = 0;
    },
    readFile: async (path, encoding) => {
      await gate('readFile', path);
      return base.readFile(path, encoding);
    },
    open: async (path, flags, mode) => {
      await gate('open', path);
      return wrapHandle(await base.open(path, flags, mode), path);
    },
    rename: async (from, to) => {
      await gate('rename', from);
      return base.rename(from, to);
    },
    unlink: async (path) => {
      await gate('unlink', path);
      return base.unlink(path);
    },
    link: async (from, to) => {
      await gate('link', from);
      return base.link(from, to);
    },
    copyFile: async (from, to) => {
      await gate('copyFile', from);
      return base.copyFile(from, to);
    },
    mkdir: async (path, mkdirOptions) => {
      await gate('mkdir', path);
      return base.mkdir(path, mkdirOptions);
    },
    readdir: async (path, readdirOptions) => {
      await gate('readdir', path);
      return base.readdir(path, readdirOptions);
    },
    stat: async (path) => {
      await gate('stat', path);
      return base.stat(path);
    },
  };
};
