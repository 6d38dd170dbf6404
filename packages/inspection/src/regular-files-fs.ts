import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { type Fs, NOT_REGULAR_FILE_CODE, nodeFs } from '@hankweave/durable-io';

const isReadOnlyFlag = (flags: unknown): boolean =>
  flags === undefined || flags === 'r' || flags === constants.O_RDONLY;

async function openRegular(path: Parameters<Fs['open']>[0], flags?: unknown) {
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer forever.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw Object.assign(new Error(`${String(path)} is not a regular file`), {
      code: NOT_REGULAR_FILE_CODE,
      path: String(path),
      flags,
    });
  }
  return handle;
}

/**
 * The file system the dashboard and the inspecting commands read executions through: reads of a
 * path that is not a regular file (a FIFO, a socket, a device someone put in a state file's
 * place) fail at once with `EFTYPE` instead of blocking the server. Writes go to the real file
 * system (these readers write nothing).
 */
export const regularFilesFs: Fs = {
  ...nodeFs,
  readFile: (async (path: Parameters<Fs['readFile']>[0], options?: unknown) => {
    if (typeof path !== 'string' && !(path instanceof URL) && !Buffer.isBuffer(path))
      return nodeFs.readFile(path, options as never);
    const handle = await openRegular(path);
    try {
      return await handle.readFile(options as never);
    } finally {
      await handle.close();
    }
  }) as Fs['readFile'],
  open: (async (path: Parameters<Fs['open']>[0], flags?: unknown, mode?: unknown) =>
    isReadOnlyFlag(flags)
      ? openRegular(path, flags)
      : nodeFs.open(path, flags as never, mode as never)) as Fs['open'],
};
