import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { HankweaveError } from '@hankweave/types';

/** A raw file-system error said in words: what happened (by path) and what to do next. */
export interface FsErrorDescription {
  /** The errno code (`ENOENT`, `ENOSPC`, ...). */
  errno: string;
  /** The path the failed call was about, when known. */
  path?: string;
  /** What happened, naming the path. */
  message: string;
  /** What to do next (printed after `→`). */
  hint: string;
}

/** Where new executions go, and how to pick another place: part of every "cannot write" hint. */
const MOVE_EXECUTIONS =
  '--execution <dir> for this run, or HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR=<dir> for where new executions go';

const ERRNO_PATTERN = /^E[A-Z0-9]+$/;

/**
 * The errno error behind `error`: the error itself or one of its causes (a `JournalError`
 * wrapping an `ENOSPC`, say). A hankweave error's own `code` is never an errno, so only plain
 * system errors and the `details.errno` a wrapper recorded count.
 */
function findErrno(error: unknown): { errno: string; path?: string } | undefined {
  let current: unknown = error;
  let wrapperPath: string | undefined;
  let recorded: string | undefined;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const value = current as { code?: unknown; path?: unknown; details?: unknown; cause?: unknown };
    if (HankweaveError.is(current)) {
      const details = (value.details ?? {}) as { errno?: unknown; path?: unknown };
      if (typeof details.path === 'string') wrapperPath ??= details.path;
      if (typeof details.errno === 'string' && ERRNO_PATTERN.test(details.errno)) {
        recorded ??= details.errno;
      }
    } else if (typeof value.code === 'string' && ERRNO_PATTERN.test(value.code)) {
      const path =
        typeof value.path === 'string' ? value.path : (wrapperPath ?? pathInMessage(current));
      return { errno: value.code, ...(path ? { path } : {}) };
    }
    current = value.cause;
  }
  // The cause was not kept (it crossed a process or the wire): the recorded errno still counts.
  return recorded ? { errno: recorded, ...(wrapperPath ? { path: wrapperPath } : {}) } : undefined;
}

/** Node puts the path at the end of the message: `ENOENT: no such file or directory, stat '/x'`. */
function pathInMessage(error: object): string | undefined {
  const message = (error as { message?: unknown }).message;
  if (typeof message !== 'string') return undefined;
  return /, \w+ '([^']+)'/.exec(message)?.[1];
}

/** `path` or its nearest ancestor that exists, when that is not a directory (why ENOTDIR). */
function fileInTheWay(path: string): string | undefined {
  for (let current = path; current !== dirname(current); current = dirname(current)) {
    try {
      return statSync(current).isDirectory() ? undefined : current;
    } catch {
      // Missing: keep walking up to the part that exists.
    }
  }
  return undefined;
}

/**
 * Says a raw file-system error (or a hankweave error caused by one) in words, for the codes a
 * user can cause: a missing path, a directory that is not writable, a full disk, too many open
 * files, a file where a directory should be and the reverse. Undefined for anything else, which
 * the caller reports as it would any error.
 */
export function describeFsError(error: unknown): FsErrorDescription | undefined {
  const found = findErrno(error);
  if (!found) return undefined;
  const { errno } = found;
  const path = found.path ?? 'a file';
  const at = found.path ? ` (${found.path})` : '';
  const make = (message: string, hint: string): FsErrorDescription => ({
    errno,
    ...(found.path ? { path: found.path } : {}),
    message,
    hint,
  });
  switch (errno) {
    case 'ENOENT':
      return make(
        `${path} does not exist (ENOENT).`,
        'Check the path for a typo and pass one that exists (relative paths start at the current directory).',
      );
    case 'EACCES':
    case 'EPERM':
      return make(
        `Permission denied (${errno}) on ${path}.`,
        `Fix the permissions of ${found.path ? dirname(found.path) : 'that directory'}, or pick a directory you can write: ${MOVE_EXECUTIONS}.`,
      );
    case 'EROFS':
      return make(
        `${path} is on a read-only file system (EROFS).`,
        `Pick a writable directory: ${MOVE_EXECUTIONS}.`,
      );
    case 'ENOSPC':
    case 'EDQUOT':
      return make(
        `The disk holding ${path} is full (${errno === 'EDQUOT' ? 'EDQUOT: disk quota exceeded' : 'ENOSPC'}).`,
        `Free space on that disk, or move the executions to another one (${MOVE_EXECUTIONS}); then rerun the same command to resume.`,
      );
    case 'EMFILE':
    case 'ENFILE':
      return make(
        `Too many open files (${errno})${at}.`,
        'Raise the open-file limit (e.g. `ulimit -n 4096`) or close other programs, then rerun the same command.',
      );
    case 'ENOTDIR': {
      const file = found.path ? fileInTheWay(found.path) : undefined;
      return make(
        file === found.path
          ? `${file} is a file, not a directory (ENOTDIR).`
          : file
            ? `${file} is a file, not a directory, so ${path} cannot exist (ENOTDIR).`
            : `A part of ${path} is not a directory (ENOTDIR).`,
        'Pass a directory there (or a path whose parents are all directories), or move the file out of the way.',
      );
    }
    case 'EISDIR':
      return make(
        `${path} is a directory where a file was expected (EISDIR).`,
        'Pass the path of a file, not of a directory.',
      );
    case 'EEXIST':
      return make(
        `${path} already exists (EEXIST).`,
        'Remove it or pass a path that does not exist yet.',
      );
    case 'ENAMETOOLONG':
    case 'ELOOP':
      return make(
        `${path} cannot be resolved (${errno === 'ELOOP' ? 'ELOOP: a symbolic link loop' : 'ENAMETOOLONG: the name is too long'}).`,
        'Pass a shorter path without looping symbolic links.',
      );
    case 'EIO':
      return make(
        `Input/output error (EIO)${at}: the disk or the mount holding it is failing.`,
        `Check the disk (\`dmesg\`), or move the executions to another one (${MOVE_EXECUTIONS}).`,
      );
    default:
      return undefined;
  }
}
