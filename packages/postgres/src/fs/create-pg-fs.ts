import type { Fs } from '@hankweave/durable-io';
import type { Pool } from 'pg';
import { PostgresError } from '../errors.js';
import { FilesTable } from './files-table.js';
import { asFsCall, fsError } from './fs-errors.js';
import { openFile, parseOpenFlags } from './fs-open.js';
import * as operations from './fs-operations.js';
import { normalizePath } from './fs-paths.js';

/** Options of {@link createPgFs}. */
export interface PgFsOptions {
  /** A `pg` pool; never ended by the file system. */
  pool: Pool;
  /** Isolates one tree of paths from every other in the same table (a fleet, a tenant). */
  namespace: string;
  /** The clock of modification times (ms). Default `Date.now`: the writer's clock, as on a disk. */
  now?: () => number;
}

/**
 * The methods of `Fs` that {@link createPgFs} implements: every call that `@hankweave/state`
 * (`StateStore`, `acquireRuntimeLock`, `readState`) and the durable-io helpers it uses make, and a
 * few more that cost nothing. The others (`readlink`, `symlink`: there are no links here) and the
 * four synchronous methods fail with `ENOTSUP`.
 */
export const PG_FS_METHODS = [
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
  'chmod',
  'utimes',
] as const;

type Options = { encoding?: BufferEncoding | null; flag?: unknown; mode?: number } | string;

const encodingOf = (options: unknown): BufferEncoding | undefined =>
  typeof options === 'string'
    ? (options as BufferEncoding)
    : ((options as { encoding?: BufferEncoding } | undefined)?.encoding ?? undefined);

const seconds = (time: unknown): number =>
  time instanceof Date ? time.getTime() : Number(time) * 1000;

// A network round trip cannot be synchronous. @hankweave/state never calls these (the
// integration test traces every call of a whole store lifecycle); packages that walk trees
// synchronously (files, checkpoints) need the real file system.
const unsupported = (method: string) => (): never => {
  throw fsError('ENOTSUP', method, undefined, {
    detail: `${method} cannot run over Postgres: a database round trip cannot be synchronous`,
  });
};

/**
 * A small transactional file system in Postgres, typed as durable-io's `Fs`, so that
 * `StateStore.open(dir, { fs })` and `acquireRuntimeLock(dir, { fs })` keep state.json and
 * runtime.lock in a database that every worker of a fleet reaches. Each call is one statement
 * or one transaction: `rename` is atomic, a write is durable once it resolves (committed), and
 * errors carry Node's codes (ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY, ...).
 *
 * @throws {PostgresError} POSTGRES_BAD_ARGUMENT when `namespace` is empty.
 */
export function createPgFs(options: PgFsOptions): Fs {
  if (typeof options.namespace !== 'string' || options.namespace.length === 0) {
    throw new PostgresError('POSTGRES_BAD_ARGUMENT', 'namespace must be a non-empty string', {
      details: { namespace: String(options.namespace) },
    });
  }
  const table = new FilesTable(options.pool, options.namespace, options.now ?? Date.now);
  const call =
    <A extends unknown[], T>(syscall: string, run: (path: string, ...rest: A) => Promise<T>) =>
    async (path: unknown, ...rest: A): Promise<T> => {
      // async: a bad path rejects, as node:fs/promises does, instead of throwing.
      const normalized = normalizePath(path);
      return asFsCall(syscall, normalized, () => run(normalized, ...rest));
    };
  const write = (syscall: string, flag: string) =>
    call(syscall, async (path, data: unknown, opts?: Options) => {
      const given = typeof opts === 'object' ? opts : undefined;
      const handle = await openFile(
        table,
        path,
        parseOpenFlags(given?.flag ?? flag, path),
        given?.mode,
      );
      await handle.writeFile(data, encodingOf(opts));
      await handle.close();
    });

  const fs = {
    readFile: call('open', async (path, opts?: Options) => {
      const bytes = await operations.readFile(table, path);
      const encoding = encodingOf(opts);
      return encoding === undefined ? bytes : bytes.toString(encoding);
    }),
    writeFile: write('open', 'w'),
    appendFile: write('open', 'a'),
    open: call('open', (path, flags?: unknown, mode?: number) =>
      openFile(table, path, parseOpenFlags(flags, path), mode),
    ),
    rename: call('rename', (path, to: unknown) =>
      operations.rename(table, path, normalizePath(to)),
    ),
    unlink: call('unlink', (path) => operations.unlink(table, path)),
    link: call('link', (path, to: unknown) => operations.link(table, path, normalizePath(to))),
    copyFile: call('copyfile', (path, to: unknown, mode?: number) =>
      operations.copyFile(table, path, normalizePath(to), mode),
    ),
    mkdir: call('mkdir', (path, opts?: { recursive?: boolean; mode?: number } | number) =>
      typeof opts === 'number'
        ? operations.mkdir(table, path, false, opts)
        : operations.mkdir(table, path, opts?.recursive === true, opts?.mode),
    ),
    rmdir: call('rmdir', (path) => operations.rmdir(table, path)),
    rm: call('rm', (path, opts?: { recursive?: boolean; force?: boolean }) =>
      operations.rm(table, path, opts ?? {}),
    ),
    readdir: call('scandir', (path, opts?: { withFileTypes?: boolean } | string) =>
      operations.readdir(table, path, typeof opts === 'object' && opts.withFileTypes === true),
    ),
    stat: call('stat', (path) => operations.stat(table, path)),
    // No symbolic links exist here, so lstat is stat.
    lstat: call('lstat', (path) => operations.stat(table, path)),
    chmod: call('chmod', (path, mode: number) =>
      operations.updateEntry(table, 'chmod', path, mode),
    ),
    utimes: call('utime', (path, _atime: unknown, mtime: unknown) =>
      operations.updateEntry(table, 'utime', path, seconds(mtime)),
    ),
    readlink: call('readlink', async (path) => {
      await operations.stat(table, path);
      throw fsError('EINVAL', 'readlink', path); // exists, and is not a link
    }),
    symlink: async () => unsupported('symlink')(),
    readdirSync: unsupported('readdirSync'),
    lstatSync: unsupported('lstatSync'),
    statSync: unsupported('statSync'),
    readFileSync: unsupported('readFileSync'),
  };
  // The methods follow node:fs/promises' behaviour but not all of its overloads' types.
  return Object.freeze(fs) as unknown as Fs;
}
