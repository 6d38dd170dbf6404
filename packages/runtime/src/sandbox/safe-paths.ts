import { readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { findSymlinkOnPath } from '@hankweave/durable-io';
import { RuntimeError } from '../errors.js';

/**
 * Why the runtime must not remove, copy or write at `relativePath` under `root`: a component
 * before the last is a symbolic link (a previous codon's agent may have planted it; following it
 * would reach the user's data or anything else). Undefined when the path is safe. The message
 * names the link and where it points, and says what to do. The last component may be a link: it is
 * then removed as a link, never followed.
 */
export async function unsafePathMessage(
  root: string,
  relativePath: string,
  what: string,
): Promise<string | undefined> {
  const link = await findSymlinkOnPath(root, relativePath, { includeLast: false });
  if (link === undefined) return undefined;
  const target = await readlink(join(root, link)).catch(() => '?');
  return `${what} goes through the symbolic link ${link} (→ ${target}) in ${root}; hankweave never writes or deletes through a link (an agent may have planted it). Remove the link, or use another path`;
}

/**
 * {@link unsafePathMessage} as an error.
 * @throws {RuntimeError} RUNTIME_UNSAFE_PATH naming the link (`details.link`, `details.path`).
 */
export async function assertSafePath(
  root: string,
  relativePath: string,
  what: string,
): Promise<void> {
  const message = await unsafePathMessage(root, relativePath, what);
  if (message === undefined) return;
  throw new RuntimeError('RUNTIME_UNSAFE_PATH', message, {
    details: {
      path: join(root, relativePath),
      link: await findSymlinkOnPath(root, relativePath, { includeLast: false }),
    },
  });
}
