import type { FileHandle } from 'node:fs/promises';

/** Size of one positional read when scanning forward. */
export const SCAN_CHUNK_BYTES = 1024 * 1024;

/**
 * Reads `[from, to)` of a file in fixed-size chunks, reusing one buffer: memory stays flat
 * however large the file is. Each yielded buffer is only valid until the next one is requested.
 */
export async function* readChunks(
  handle: FileHandle,
  from: number,
  to: number,
  chunkBytes = SCAN_CHUNK_BYTES,
): AsyncGenerator<Buffer, void, undefined> {
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, to - from)));
  let position = from;
  while (position < to) {
    const length = Math.min(buffer.length, to - position);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    // The file shrank under us (truncated or replaced): stop at what was there.
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
