import { basename, dirname, join } from 'node:path';
import {
  createDirectory,
  type Fs,
  isAtomicTempName,
  moveAsideAsCorrupt,
  writeFileAtomic,
} from '@hankweave/durable-io';
import { type FileLockOptions, withFileLock } from './file-lock.js';
import { ioError, isJsonObject, jsonText, readJson } from './json-file.js';

/** How {@link lockedJsonUpdate} finds, checks and replaces one shared JSON file. */
export interface LockedJsonFile extends FileLockOptions {
  file: string;
  lockFile: string;
  fs: Fs;
  /** What the file holds when it is missing or had to be moved aside. */
  empty(): Record<string, unknown>;
  /** False for a parsed document this update cannot work on: it is moved aside. */
  isUsable(document: Record<string, unknown>): boolean;
  /** What the file is, for the warning (`session registry`). */
  description: string;
  onWarning?: (message: string) => void;
}

/**
 * One read-modify-write of a JSON file shared by processes: creates its directory, takes the
 * lock, removes temp files that a killed writer left, reads the document (an unusable one is
 * moved aside with a warning, and the update starts from `empty()`), lets `mutate` change it in
 * place, and writes it durably and atomically when its text changed, before unlocking.
 */
export async function lockedJsonUpdate<T>(
  target: LockedJsonFile,
  mutate: (document: Record<string, unknown>) => T | Promise<T>,
): Promise<T> {
  const { file, fs } = target;
  const dir = dirname(file);
  try {
    await createDirectory(dir, { fs });
  } catch (error) {
    throw ioError('create', dir, error);
  }
  return withFileLock(file, target.lockFile, target, async (held) => {
    await removeLeftoverTempFiles(file, fs);
    const { document, before } = await readForUpdate(target);
    const result = await mutate(document);
    const text = jsonText(document);
    if (text === before) return result;
    held.assertHeld();
    try {
      await writeFileAtomic(file, text, { fs });
    } catch (error) {
      throw ioError('write', file, error);
    }
    return result;
  });
}

/** The document to change, and its text when it was usable (to skip writes that change nothing). */
async function readForUpdate(
  target: LockedJsonFile,
): Promise<{ document: Record<string, unknown>; before?: string }> {
  const read = await readJson(target.file, target.fs);
  if (read.kind === 'parsed' && isJsonObject(read.value) && target.isUsable(read.value)) {
    return { document: read.value, before: read.text };
  }
  if (read.kind === 'missing') {
    const document = target.empty();
    return { document, before: jsonText(document) };
  }
  let movedTo: string | undefined;
  try {
    movedTo = await moveAsideAsCorrupt(target.file, { fs: target.fs });
  } catch (error) {
    throw ioError('move aside the corrupt file', target.file, error);
  }
  target.onWarning?.(
    `${target.file} was not a valid ${target.description}; moved it to ${movedTo} and started a new one`,
  );
  return { document: target.empty() };
}

/**
 * Deletes the temporary files (`{name}.{12 hex}.tmp`) of writers of `file` that died between
 * writing and renaming. Safe only under the lock: no other writer can be mid-write.
 */
async function removeLeftoverTempFiles(file: string, fs: Fs): Promise<void> {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return; // The write that follows reports a real problem with the directory.
  }
  for (const name of names) {
    if (name.startsWith(prefix) && isAtomicTempName(name)) {
      await fs.unlink(join(dir, name)).catch(() => undefined);
    }
  }
}
