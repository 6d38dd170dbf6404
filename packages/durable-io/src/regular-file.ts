import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** The `code` of the error {@link readRegularFile} throws for a path that is not a regular file. */
export const NOT_REGULAR_FILE_CODE = 'EFTYPE';
/** The `code` of the error {@link readRegularFile} throws for a file above `maxBytes`. */
export const FILE_TOO_LARGE_CODE = 'EFBIG';

/** Options of {@link readRegularFile} and {@link readRegularFileSync}. */
export interface ReadRegularFileOptions {
  /** Refuse a larger file (`EFBIG`) instead of reading it. Default: no limit. */
  maxBytes?: number;
}

// O_NONBLOCK: opening a FIFO for reading blocks until a writer appears (forever, when none
// does), and so would a read from a character device such as a terminal. With it, open returns
// at once and fstat says what the path is. It changes nothing for a regular file. O_NOCTTY: a
// terminal device never becomes our controlling terminal.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** What a non-regular file is, for the message. */
function kindOf(stats: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice'>) {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  return 'a block device';
}

function notRegular(path: string, kind: string): Error {
  return Object.assign(new Error(`${path} is ${kind}, not a regular file`), {
    code: NOT_REGULAR_FILE_CODE,
    path,
    kind,
  });
}

function tooLarge(path: string, size: number, maxBytes: number): Error {
  return Object.assign(
    new Error(`${path} is ${size} bytes, more than the ${maxBytes} bytes allowed`),
    { code: FILE_TOO_LARGE_CODE, path, size, maxBytes },
  );
}

/**
 * Reads a file only if it is a regular file at the moment it is opened (symlinks to one are
 * followed): never blocks on a FIFO, a socket or a device that someone put in the file's place.
 * The file is opened without blocking and checked with `fstat` on the open descriptor, so the
 * check and the read are of the same file (no race between them).
 *
 * @throws an error with `code` `EFTYPE` (a FIFO, a directory, a device...; `kind` names it),
 *   `EFBIG` (above `maxBytes`), or the open's own errno (`ENOENT`, `EACCES`...).
 */
export async function readRegularFile(
  path: string,
  options: ReadRegularFileOptions = {},
): Promise<Buffer> {
  const handle = await open(path, READ_FLAGS);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(path, kindOf(stats));
    if (options.maxBytes !== undefined && stats.size > options.maxBytes)
      throw tooLarge(path, stats.size, options.maxBytes);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** {@link readRegularFile} as UTF-8 text. */
export async function readRegularTextFile(
  path: string,
  options: ReadRegularFileOptions = {},
): Promise<string> {
  return (await readRegularFile(path, options)).toString('utf8');
}

/** {@link readRegularFile} with synchronous system calls. */
export function readRegularFileSync(path: string, options: ReadRegularFileOptions = {}): Buffer {
  const fd = openSync(path, READ_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(path, kindOf(stats));
    if (options.maxBytes !== undefined && stats.size > options.maxBytes)
      throw tooLarge(path, stats.size, options.maxBytes);
    const chunks: Buffer[] = [];
    // Read until EOF rather than trusting the size: the file may grow while it is read.
    for (;;) {
      const chunk = Buffer.alloc(Math.max(65_536, Math.min(stats.size + 1, 16 * 1024 * 1024)));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}
