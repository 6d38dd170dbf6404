import { constants } from 'node:os';

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  EPERM: 'operation not permitted',
  EBADF: 'bad file descriptor',
  EBUSY: 'resource busy or locked',
  ENOTSUP: 'operation not supported',
  EIO: 'i/o error',
  ERR_FS_EISDIR: 'path is a directory',
};

// Marks the errors this file system made, so that a pg connection error (which carries
// `syscall: 'connect'` and `ECONNREFUSED`) is still reported as EIO.
const OURS = Symbol('hankweave.pgFsError');

/** An error shaped like Node's file system errors: `code`, `errno`, `syscall`, `path`. */
export interface FsError extends Error {
  code: string;
  errno?: number;
  syscall: string;
  path?: string;
  dest?: string;
}

/** Makes the error Node would throw for `code` in `syscall` (callers branch on `code`). */
export function fsError(
  code: string,
  syscall: string,
  path?: string,
  options: { dest?: string; cause?: unknown; detail?: string } = {},
): FsError {
  const where =
    path === undefined ? '' : ` '${path}'${options.dest ? ` -> '${options.dest}'` : ''}`;
  const detail = options.detail ? ` (${options.detail})` : '';
  const error = new Error(
    `${code}: ${DESCRIPTIONS[code] ?? 'error'}, ${syscall}${where}${detail}`,
    options.cause === undefined ? undefined : { cause: options.cause },
  ) as FsError;
  const errno = (constants.errno as Record<string, number>)[code];
  if (errno !== undefined) error.errno = -errno;
  error.code = code;
  error.syscall = syscall;
  if (path !== undefined) error.path = path;
  if (options.dest !== undefined) error.dest = options.dest;
  Object.defineProperty(error, OURS, { value: true });
  return error;
}

/** True for an error made by {@link fsError}, or a path error of Node's argument checks. */
export const isFsError = (error: unknown): error is FsError =>
  error instanceof Error &&
  (OURS in error || /^ERR_INVALID_ARG/.test(String((error as { code?: unknown }).code)));

/**
 * Runs one file system call; a failure that is not already a file system error (the database is
 * unreachable, a statement failed) becomes `EIO`, with the `pg` error as `cause`: callers of an
 * `Fs` branch on errno codes, and an I/O error is what a broken disk would give them.
 */
export async function asFsCall<T>(
  syscall: string,
  path: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isFsError(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw fsError('EIO', syscall, path, { cause: error, detail });
  }
}
