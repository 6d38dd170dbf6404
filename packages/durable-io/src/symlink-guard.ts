import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { isMissing } from './errno.js';
import { normalizeRelative } from './paths.js';

/** Options of {@link findSymlinkOnPath}. */
export interface FindSymlinkOptions {
  /** Check the last component too (default true): false when the path itself may be a link. */
  includeLast?: boolean;
}

/**
 * The first component of `relativePath` under `root` that is a symbolic link, as a path relative
 * to `root` (`a/b` for `root/a/b`), or undefined when every existing component is a real file or
 * directory. `root` itself is trusted (it may be a link, such as macOS's `/tmp`). A component that
 * does not exist ends the walk: nothing below it exists either.
 *
 * For the runtime's own file operations inside an execution, whose directories a previous agent
 * could have replaced by links to anywhere: a path is used only when this returns undefined, so a
 * remove, copy or write never goes through a link. The check and the use are not atomic; callers
 * run it when no process of the codon is alive (the sandbox ends them all with the codon).
 *
 * @throws the lstat error of a component, other than ENOENT/ENOTDIR; a `relativePath` that climbs
 *   out of `root` (`..`) or is absolute is reported as itself (never walked).
 */
export async function findSymlinkOnPath(
  root: string,
  relativePath: string,
  options: FindSymlinkOptions = {},
): Promise<string | undefined> {
  const normal = normalizeRelative(relativePath.replaceAll('\\', '/'));
  if (normal === undefined || relativePath.startsWith('/')) return relativePath;
  if (normal === '') return undefined;
  const parts = normal.split('/');
  const checked = options.includeLast === false ? parts.slice(0, -1) : parts;
  let current = root;
  for (const [index, part] of checked.entries()) {
    current = join(current, part);
    try {
      if ((await lstat(current)).isSymbolicLink()) return parts.slice(0, index + 1).join('/');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }
  return undefined;
}
