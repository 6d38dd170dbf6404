import { dirname } from 'node:path';
import {
  type Fs,
  type FsFileHandle,
  hasErrno,
  isMissing,
  lastLineStart,
  syncDirectory,
} from '@hankweave/durable-io';

const NEWLINE = 0x0a;

/**
 * Appends `text` to `path` and fsyncs it before resolving, so whoever is told about the record
 * afterwards can rely on it being on disk. When this call creates the file, its directory is
 * synced too. An append is not atomic: a crash can leave part of `text` at the end of the file
 * (see {@link repairTornTail}).
 */
export async function appendDurably(fs: Fs, path: string, text: string): Promise<void> {
  let handle: FsFileHandle;
  let created = true;
  try {
    // O_EXCL first: the only way to know that this call made the file (and must sync its entry).
    handle = await fs.open(path, 'ax');
  } catch (error) {
    if (!hasErrno(error, 'EEXIST')) throw error;
    created = false;
    handle = await fs.open(path, 'a');
  }
  try {
    if (text.length > 0) await handle.writeFile(text);
    if (text.length > 0 || created) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  await handle.close();
  if (created) await syncDirectory(dirname(path), { fs });
}

/**
 * Makes a log end on a record boundary again after a crash (or a failed append) left part of a
 * record at its end, so the next append does not run into it. Every complete record ends with a
 * newline, so a file whose last byte is not one ends in a torn record. `cut` (JSON lines, which
 * never contain a raw newline) truncates back to the last newline: the torn record goes, every
 * earlier line stays whole. `terminate` (free text, where a record may span lines and its start
 * cannot be told) ends the fragment with a newline and keeps it. Returns what was done, or
 * undefined when the file is missing, empty or already whole.
 */
export async function repairTornTail(
  fs: Fs,
  path: string,
  how: 'cut' | 'terminate',
): Promise<string | undefined> {
  let handle: FsFileHandle;
  try {
    handle = await fs.open(path, 'r+');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return undefined;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === NEWLINE) return undefined;
    let done: string;
    if (how === 'terminate') {
      await handle.write(Buffer.from('\n'), 0, 1, size);
      done = 'ended the torn last record with a newline';
    } else {
      const keep = await lastLineStart(handle, size);
      await handle.truncate(keep);
      done = `dropped a torn last record of ${size - keep} bytes`;
    }
    await handle.sync();
    return done;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
