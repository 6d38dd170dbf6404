import { ASYNC_FS_METHODS, type Fs, type FsFileHandle, nodeFs, SYNC_FS_METHODS } from '../fs.js';

/** Operations on an open file handle that a {@link FaultyFs} can fail. `fsync` is `sync()`. */
export const HANDLE_OPERATIONS = [
  'write',
  'writeFile',
  'fsync',
  'close',
  'truncate',
  'read',
] as const;

/** Every operation a {@link FaultyFs} counts and can fail: the {@link Fs} methods and the handle's. */
export type FsOperation =
  | (typeof ASYNC_FS_METHODS)[number]
  | (typeof SYNC_FS_METHODS)[number]
  | (typeof HANDLE_OPERATIONS)[number];

/** Where and how to fail. */
export interface Fault {
  /** The operation to fail, or `any` to count every call. */
  failAt: FsOperation | 'any';
  /** Let this many matching calls succeed first (default 0: the first matching call fails). */
  after?: number;
  /** How many matching calls fail from then on (default 1; `Infinity`: every later one). */
  times?: number;
  /**
   * `throw`: the call fails with `code` and the fs goes on working (a transient error).
   * `crash`: that call and every later call on this fs are refused (`ECRASHED`), as if the
   * process died at that step; its open descriptors are closed, as the kernel would. Default
   * `throw`.
   */
  mode?: 'throw' | 'crash';
  /** Only calls whose path contains this string count. */
  pathIncludes?: string;
  /** The error code of the injected failure (default `EIO`). */
  code?: string;
  /**
   * For writes (`write`, `writeFile`): bytes that reach the file before the failure, to leave a
   * torn write. Default: half of the data for `crash`, none for `throw`.
   */
  partialBytes?: number;
}

/** One recorded call. */
export interface FsCall {
  op: FsOperation;
  path: string;
  /** True when this call was failed or refused. */
  failed: boolean;
}

/** A file system that records its calls and fails where told to. */
export interface FaultyFs extends Fs {
  /** Every call so far, in order (empty when created with `trace: false`). */
  readonly trace: readonly FsCall[];
  /** True once a `crash` fault fired: every call is refused from then on. */
  readonly crashed: boolean;
  /** True once an armed fault fired. */
  readonly faulted: boolean;
  /** How many calls of `op` were made (failed ones included), since creation or `clearTrace()`. */
  calls(op: FsOperation): number;
  /** Arms one or more faults, each counting from now. Replaces the faults armed before. */
  arm(fault: Fault | readonly Fault[]): void;
  /** Removes the armed faults (a crash stays crashed). */
  disarm(): void;
  /** Clears the trace and the call counts. */
  clearTrace(): void;
}

/** Options of {@link createFaultyFs}: the fs to wrap, whether to keep a trace, and a fault. */
export interface FaultyFsOptions extends Partial<Fault> {
  /** The file system to wrap (default the real one). */
  fs?: Fs;
  /** Several faults at once (armed together with the one given by `failAt`, if any). */
  faults?: readonly Fault[];
  /** Keep a trace of every call (default true; turn it off for runs of millions of calls). */
  trace?: boolean;
}

interface ArmedFault {
  fault: Fault;
  seen: number;
  fired: number;
}

const injected = (code: string, op: FsOperation, path: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: injected fault in ${op} '${path}'`), { code, path });

const toBytes = (data: unknown): Uint8Array | undefined => {
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof Uint8Array) return data;
  return undefined;
};

const pathOf = (op: string, args: readonly unknown[]): string => {
  // symlink(target, path): the path written is the second one.
  const value = op === 'symlink' ? args[1] : args[0];
  return typeof value === 'string' ? value : value instanceof URL ? value.pathname : String(value);
};

/**
 * Wraps a file system to inject faults and record calls, for crash and I/O-error tests:
 * `createFaultyFs({failAt: 'rename', after: 1, mode: 'crash'})` lets one rename through, then
 * "kills the process" at the second; `{failAt: 'write', partialBytes: 10, code: 'ENOSPC'}` tears
 * one write after 10 bytes; `{failAt: 'open', pathIncludes: '.lock', times: Infinity}` fails
 * every lock-file open. Without a fault it only records, until {@link FaultyFs.arm} is called.
 */
export function createFaultyFs(options: FaultyFsOptions = {}): FaultyFs {
  const base = options.fs ?? nodeFs;
  const keepTrace = options.trace ?? true;
  const trace: FsCall[] = [];
  const counts = new Map<FsOperation, number>();
  const openHandles = new Set<FsFileHandle>();
  let armed: ArmedFault[] = [];
  let crashed = false;
  let faulted = false;

  const arm = (faults: Fault | readonly Fault[]): void => {
    armed = (Array.isArray(faults) ? faults : [faults]).map((fault) => ({
      fault,
      seen: 0,
      fired: 0,
    }));
  };
  const initial = [...(options.faults ?? [])];
  if (options.failAt !== undefined) initial.unshift({ ...options, failAt: options.failAt });
  if (initial.length > 0) arm(initial);

  const record = (op: FsOperation, path: string, failed: boolean): void => {
    counts.set(op, (counts.get(op) ?? 0) + 1);
    if (keepTrace) trace.push({ op, path, failed });
  };

  /** The fault that fails this call, if any; counts the call against every matching fault. */
  const decide = (op: FsOperation, path: string): Fault | undefined => {
    if (crashed) {
      record(op, path, true);
      throw injected('ECRASHED', op, path);
    }
    let hit: Fault | undefined;
    for (const entry of armed) {
      const { fault } = entry;
      const matches =
        (fault.failAt === 'any' || fault.failAt === op) &&
        (fault.pathIncludes === undefined || path.includes(fault.pathIncludes));
      if (!matches) continue;
      const index = entry.seen++;
      if (hit === undefined && index >= (fault.after ?? 0) && entry.fired < (fault.times ?? 1)) {
        entry.fired++;
        hit = fault;
      }
    }
    record(op, path, hit !== undefined);
    if (hit !== undefined) faulted = true;
    return hit;
  };

  const crash = (): Promise<unknown> => {
    crashed = true;
    // A dead process's descriptors are closed by the kernel; do the same for the real ones.
    const handles = [...openHandles];
    openHandles.clear();
    return Promise.allSettled(handles.map((handle) => handle.close()));
  };

  /** Runs one async call through the fault plan; `tear` writes the partial data of a write. */
  const gate = async <T>(
    op: FsOperation,
    path: string,
    run: () => Promise<T>,
    tear?: (bytes: number | 'half') => Promise<unknown>,
  ): Promise<T> => {
    const fault = decide(op, path);
    if (fault === undefined) return run();
    const partial = fault.partialBytes ?? (fault.mode === 'crash' ? 'half' : 0);
    if (tear !== undefined && partial !== 0) await tear(partial);
    if (fault.mode === 'crash') {
      await crash();
      throw injected('ECRASHED', op, path);
    }
    throw injected(fault.code ?? 'EIO', op, path);
  };

  const gateSync = <T>(op: FsOperation, path: string, run: () => T): T => {
    const fault = decide(op, path);
    if (fault === undefined) return run();
    if (fault.mode === 'crash') {
      void crash();
      throw injected('ECRASHED', op, path);
    }
    throw injected(fault.code ?? 'EIO', op, path);
  };

  const cut = (data: Uint8Array, bytes: number | 'half'): Uint8Array =>
    data.subarray(0, bytes === 'half' ? Math.floor(data.length / 2) : bytes);

  const wrapHandle = (handle: FsFileHandle, path: string): FsFileHandle => {
    openHandles.add(handle);
    const overrides: Partial<Record<keyof FsFileHandle, unknown>> = {
      write: (data: unknown, ...rest: unknown[]) =>
        gate(
          'write',
          path,
          () => (handle.write as (...args: unknown[]) => Promise<unknown>)(data, ...rest),
          async (bytes) => {
            const whole = toBytes(data);
            if (whole === undefined) return;
            // A positioned write keeps its position: the torn bytes land where the whole would.
            const position = typeof rest[2] === 'number' ? rest[2] : undefined;
            const start = typeof rest[0] === 'number' ? rest[0] : 0;
            const length = typeof rest[1] === 'number' ? rest[1] : whole.length - start;
            const part = cut(whole.subarray(start, start + length), bytes);
            await handle.write(part, 0, part.length, position ?? null);
          },
        ),
      writeFile: (data: unknown, ...rest: unknown[]) =>
        gate(
          'writeFile',
          path,
          () => (handle.writeFile as (...args: unknown[]) => Promise<void>)(data, ...rest),
          async (bytes) => {
            const whole = toBytes(data);
            if (whole !== undefined) await handle.writeFile(cut(whole, bytes));
          },
        ),
      sync: () => gate('fsync', path, () => handle.sync()),
      datasync: () => gate('fsync', path, () => handle.datasync()),
      truncate: (length?: number) => gate('truncate', path, () => handle.truncate(length)),
      read: (...args: unknown[]) =>
        gate('read', path, () => (handle.read as (...a: unknown[]) => Promise<unknown>)(...args)),
      close: async () => {
        try {
          await gate('close', path, async () => undefined);
        } catch (error) {
          // An injected close failure still releases the real descriptor (a crash already did).
          if (openHandles.delete(handle)) await handle.close().catch(() => undefined);
          throw error;
        }
        openHandles.delete(handle);
        await handle.close();
      },
    };
    return new Proxy(handle, {
      get(target, property, receiver) {
        if (property in overrides) return overrides[property as keyof FsFileHandle];
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };

  const wrapped: Record<string, unknown> = {};
  for (const method of ASYNC_FS_METHODS) {
    const original = base[method] as (...args: unknown[]) => Promise<unknown>;
    wrapped[method] = (...args: unknown[]) => {
      const path = pathOf(method, args);
      if (method === 'open') {
        return gate('open', path, async () =>
          wrapHandle((await original(...args)) as FsFileHandle, path),
        );
      }
      const tear =
        method === 'writeFile' && typeof args[0] === 'string'
          ? async (bytes: number | 'half') => {
              const whole = toBytes(args[1]);
              if (whole !== undefined) await base.writeFile(args[0] as string, cut(whole, bytes));
            }
          : undefined;
      return gate(method, path, () => original(...args), tear);
    };
  }
  for (const method of SYNC_FS_METHODS) {
    const original = base[method] as (...args: unknown[]) => unknown;
    wrapped[method] = (...args: unknown[]) =>
      gateSync(method, pathOf(method, args), () => original(...args));
  }

  const control = {
    get trace() {
      return trace;
    },
    get crashed() {
      return crashed;
    },
    get faulted() {
      return faulted;
    },
    calls: (op: FsOperation) => counts.get(op) ?? 0,
    arm,
    disarm: () => {
      armed = [];
    },
    clearTrace: () => {
      trace.length = 0;
      counts.clear();
    },
  };
  // defineProperties, not Object.assign: the getters must stay getters.
  return Object.defineProperties(
    wrapped,
    Object.getOwnPropertyDescriptors(control),
  ) as unknown as FaultyFs;
}
