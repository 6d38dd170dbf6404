import type { FsFileHandle } from './fs.js';

const WINDOW = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * The offset just after the last newline among the first `size` bytes of an open file (0 when
 * there is none): where the last line starts. Reads backwards in 64 KiB windows, so finding the
 * torn tail of a large log costs one window, not a scan. Line-oriented files (a journal, a
 * sentinel log) use it to cut a line a crash left half-written.
 */
export async function lastLineStart(handle: FsFileHandle, size: number): Promise<number> {
  const buffer = Buffer.alloc(Math.min(WINDOW, size));
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - buffer.length);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const newline = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}
