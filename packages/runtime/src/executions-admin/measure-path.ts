import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isMissing } from '@hankweave/durable-io';

/**
 * The bytes a path holds: the apparent size of every file and symlink under it (symlinks are
 * never followed, so a data link counts as the link, not the user's data), directories counting
 * nothing themselves. `exclude` leaves out subtrees measured separately. Missing: 0.
 */
export async function measurePath(
  path: string,
  exclude: ReadonlySet<string> = new Set(),
): Promise<number> {
  if (exclude.has(path)) return 0;
  let stat: Awaited<ReturnType<typeof lstat>>;
  try {
    stat = await lstat(path);
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of await readdir(path).catch((error: unknown) => {
    if (isMissing(error)) return [] as string[];
    throw error;
  })) {
    total += await measurePath(join(path, name), exclude);
  }
  return total;
}

/** True when the path exists (a dangling symlink counts). */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
