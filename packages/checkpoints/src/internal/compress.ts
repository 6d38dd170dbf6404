import { constants, deflate, deflateSync, inflate, inflateSync } from 'node:zlib';

/**
 * Level 1: measured here, level 6 (git's default) costs ~3x the CPU for ~10% smaller objects;
 * checkpoints are written far more often than they are read.
 */
const DEFLATE_OPTIONS = { level: 1 };

/** Below this size the thread-pool hop costs more than compressing on the main thread. */
const SYNC_LIMIT = 8 * 1024;
/** Inflating is ~5x cheaper than deflating, so the main thread keeps more of it. */
const INFLATE_SYNC_LIMIT = 64 * 1024;

/**
 * zlib-deflates, on the libuv thread pool for anything but small inputs. The output chunk is
 * sized to the input: with zlib's default 16 KB chunks a 5 MB file takes a hundred thread-pool
 * round trips (measured: ~1.5 s of main-thread time over a 112 MB first checkpoint).
 */
export function deflateAsync(data: Uint8Array): Promise<Buffer> {
  if (data.length < SYNC_LIMIT) return Promise.resolve(deflateSync(data, DEFLATE_OPTIONS));
  const options = { ...DEFLATE_OPTIONS, chunkSize: chunkFor(data.length) };
  return new Promise((resolve, reject) => {
    deflate(data, options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** One chunk for the whole output when possible (incompressible input grows by < 1%). */
function chunkFor(inputLength: number, factor = 1): number {
  return Math.min(Math.max(16 * 1024, Math.ceil(inputLength * factor) + 1024), 8 * 1024 * 1024);
}

/**
 * Inflates one zlib stream. `Z_SYNC_FLUSH` as the final flush tolerates input that stops exactly
 * at the stream's end (pack entries are sliced by offset, so there is nothing after it).
 */
export function inflateAsync(data: Uint8Array): Promise<Buffer> {
  if (data.length < INFLATE_SYNC_LIMIT) {
    return Promise.resolve(inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH }));
  }
  const options = { finishFlush: constants.Z_SYNC_FLUSH, chunkSize: chunkFor(data.length, 4) };
  return new Promise((resolve, reject) => {
    inflate(data, options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
