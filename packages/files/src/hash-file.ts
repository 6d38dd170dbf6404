import { createHash, type Hash } from 'node:crypto';
import * as fs from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errnoCode, isInside, isMissing } from '@hankweave/durable-io';
import { FilesError } from './errors.js';
import { absoluteRoot, toRootRelative } from './internal/paths.js';

/**
 * `sha256` (default): the fingerprint `file.updated` carries (reference §5.7), over the raw bytes.
 * `git-blob-sha1`: git's object id for the same content (`git hash-object`), which lets the
 * checkpoint engine compare with its index without hashing again.
 */
export type HashAlgorithm = 'sha256' | 'git-blob-sha1';

/** Options of {@link hashFile} and {@link hashFileSync}. */
export interface HashFileOptions {
  readonly algorithm?: HashAlgorithm;
}

const CHUNK = 1 << 20;

interface Target {
  readonly abs: string;
  readonly rel: string;
  readonly link: boolean;
}

/** Checks the path and its real parent directory stay inside the root; never follows the file. */
function target(root: string, path: string): Target {
  const rootAbs = absoluteRoot(root);
  const rel = toRootRelative(rootAbs, path);
  const abs = resolve(rootAbs, rel);
  let stats: fs.Stats;
  let realParent: string;
  let realRoot: string;
  try {
    stats = fs.lstatSync(abs);
    realRoot = fs.realpathSync(rootAbs);
    realParent = fs.realpathSync(dirname(abs));
  } catch (error) {
    throw failure(rel, error);
  }
  // A symlinked directory on the way would make us read outside the root: compare real paths,
  // not the lexical ones toRootRelative checked.
  if (!isInside(realRoot, realParent)) {
    throw new FilesError(
      'FILES_PATH_ESCAPES_ROOT',
      `${rel} lies under a symlink leading outside the root`,
      {
        details: { path: rel },
      },
    );
  }
  if (!stats.isFile() && !stats.isSymbolicLink()) {
    throw new FilesError('FILES_INVALID_PATH', `${rel} is not a file or a symlink`, {
      details: { path: rel },
    });
  }
  return { abs, rel, link: stats.isSymbolicLink() };
}

function failure(rel: string, error: unknown): FilesError {
  const errno = errnoCode(error);
  const code = isMissing(error) ? 'FILES_NOT_FOUND' : 'FILES_UNREADABLE';
  return new FilesError(code, `${rel} could not be read (${errno ?? 'unknown error'})`, {
    cause: error,
    details: { path: rel, ...(errno ? { errno } : {}) },
  });
}

function start(algorithm: HashAlgorithm, size: number): Hash {
  if (algorithm === 'sha256') return createHash('sha256');
  return createHash('sha1').update(`blob ${size}\0`);
}

function checkAlgorithm(algorithm: HashAlgorithm): void {
  if (algorithm !== 'sha256' && algorithm !== 'git-blob-sha1') {
    throw new FilesError('FILES_INVALID_OPTION', `Unknown hash algorithm ${String(algorithm)}`, {
      details: { algorithm: String(algorithm) },
    });
  }
}

/**
 * Hex digest of a file's content, or of a symlink's target text (never followed, as git stores
 * symlinks). Reads in 1 MiB chunks from one open handle.
 *
 * @throws {FilesError} FILES_PATH_ESCAPES_ROOT, FILES_INVALID_PATH for bad paths.
 * @throws {FilesError} FILES_NOT_FOUND when the file is gone; FILES_UNREADABLE otherwise.
 */
export async function hashFile(
  root: string,
  path: string,
  options: HashFileOptions = {},
): Promise<string> {
  const algorithm = options.algorithm ?? 'sha256';
  checkAlgorithm(algorithm);
  const file = target(root, path);
  try {
    if (file.link) {
      const text = await fs.promises.readlink(file.abs, { encoding: 'buffer' });
      return start(algorithm, text.length).update(text).digest('hex');
    }
    const handle = await fs.promises.open(
      file.abs,
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW,
    );
    try {
      const { size } = await handle.stat();
      const hash = start(algorithm, size);
      const buffer = Buffer.allocUnsafe(CHUNK);
      let total = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        hash.update(buffer.subarray(0, bytesRead));
        total += bytesRead;
      }
      assertSize(file.rel, algorithm, size, total);
      return hash.digest('hex');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw FilesError.is(error) ? error : failure(file.rel, error);
  }
}

/** The synchronous twin of {@link hashFile}, for scans that are synchronous themselves. */
export function hashFileSync(root: string, path: string, options: HashFileOptions = {}): string {
  const algorithm = options.algorithm ?? 'sha256';
  checkAlgorithm(algorithm);
  const file = target(root, path);
  try {
    if (file.link) {
      const text = fs.readlinkSync(file.abs, { encoding: 'buffer' });
      return start(algorithm, text.length).update(text).digest('hex');
    }
    const fd = fs.openSync(file.abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const { size } = fs.fstatSync(fd);
      const hash = start(algorithm, size);
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
      let total = 0;
      for (;;) {
        const bytesRead = fs.readSync(fd, buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        hash.update(buffer.subarray(0, bytesRead));
        total += bytesRead;
      }
      assertSize(file.rel, algorithm, size, total);
      return hash.digest('hex');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw FilesError.is(error) ? error : failure(file.rel, error);
  }
}

/** A git object id covers a declared size; a file that grew or shrank mid-read has no valid id. */
function assertSize(rel: string, algorithm: HashAlgorithm, size: number, total: number): void {
  if (algorithm === 'git-blob-sha1' && size !== total) {
    throw new FilesError('FILES_UNREADABLE', `${rel} changed while it was being hashed`, {
      details: { path: rel, expected: size, read: total },
    });
  }
}
