import * as nodeFsSync from 'node:fs';
import type { Io, Stat } from './io.js';
import { gitModeOf } from './stat-cache.js';

// Why restore rewrites files in place: replacing a file (unlink, then an exclusive create, as
// git does) frees its data blocks and allocates a new inode. On ext4 mounted with `discard`,
// freeing blocks that already reached the disk makes each replacement cost ~0.35 ms against
// ~0.03 ms for rewriting the same inode: measured on this project's machine, 2,700 files of
// 1-5 KB took 0.93-1.08 s replaced and 0.07-0.09 s rewritten (see BENCHMARKS.md). A rewrite is
// only safe for a file that is ours alone: a regular file with one link, not a mount point, the
// same inode the restore looked at. Anything else is replaced as before.

// O_NOFOLLOW: a symlink put at the path fails the open (ELOOP) instead of being followed.
// O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of blocking the restore forever.
// O_NOCTTY: a terminal device never becomes the runtime's controlling terminal.
const REWRITE_FLAGS =
  nodeFsSync.constants.O_WRONLY |
  (nodeFsSync.constants.O_NOFOLLOW ?? 0) |
  (nodeFsSync.constants.O_NONBLOCK ?? 0) |
  (nodeFsSync.constants.O_NOCTTY ?? 0);

/**
 * True when `stat` (an lstat of a tracked path, taken while planning a restore) shows a file the
 * restore may rewrite in place to git mode `mode`: a regular file with a single link and already
 * that mode (a mode change is a replacement, so the new file's mode comes from the umask as
 * git's does).
 */
export function mayRewrite(stat: Stat, mode: number): boolean {
  return stat.isFile() && stat.nlink === 1n && gitModeOf(stat) === mode;
}

/**
 * Overwrites the file at `path` with `data` if it is still the file `expected` describes (same
 * device and inode, a regular file with one link): writes from offset 0, then truncates to the
 * new length, so a file that grows frees no block. Returns the file's stat after the write, or
 * undefined when the path is not that file any more (a link, a FIFO, a new inode, a running
 * executable...) or cannot be opened: the caller then replaces it. Errors after the open (a full
 * disk) are thrown.
 */
export async function rewriteInPlace(
  io: Io,
  path: string,
  data: Uint8Array,
  expected: Stat,
): Promise<Stat | undefined> {
  return io.native
    ? rewriteSync(path, data, expected)
    : await rewriteThroughFs(io, path, data, expected);
}

function isSameLoneFile(stat: Stat, expected: Stat): boolean {
  return (
    stat.isFile() && stat.nlink === 1n && stat.dev === expected.dev && stat.ino === expected.ino
  );
}

function rewriteSync(path: string, data: Uint8Array, expected: Stat): Stat | undefined {
  let fd: number;
  try {
    fd = nodeFsSync.openSync(path, REWRITE_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (!isSameLoneFile(nodeFsSync.fstatSync(fd, { bigint: true }), expected)) return undefined;
    let written = 0;
    while (written < data.length) {
      written += nodeFsSync.writeSync(fd, data, written, data.length - written, written);
    }
    nodeFsSync.ftruncateSync(fd, data.length);
    return nodeFsSync.fstatSync(fd, { bigint: true });
  } finally {
    nodeFsSync.closeSync(fd);
  }
}

async function rewriteThroughFs(
  io: Io,
  path: string,
  data: Uint8Array,
  expected: Stat,
): Promise<Stat | undefined> {
  let handle: Awaited<ReturnType<Io['fs']['open']>>;
  try {
    handle = await io.fs.open(path, REWRITE_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (!isSameLoneFile(await handle.stat({ bigint: true }), expected)) return undefined;
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await handle.write(data, written, data.length - written, written);
      written += bytesWritten;
    }
    await handle.truncate(data.length);
    return await handle.stat({ bigint: true });
  } finally {
    await handle.close();
  }
}
