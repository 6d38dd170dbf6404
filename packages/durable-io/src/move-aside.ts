import { isMissing } from './errno.js';
import { type Fs, nodeFs } from './fs.js';

/**
 * Renames an unusable file to `{path}.corrupt-{stamp}` instead of deleting it: the next write
 * starts clean, and the bytes stay for a person (or a newer version) to look at. Returns the new
 * path, or undefined when there was no file.
 */
export async function moveAsideAsCorrupt(
  path: string,
  options: { fs?: Fs; stamp?: number } = {},
): Promise<string | undefined> {
  const target = `${path}.corrupt-${options.stamp ?? Date.now()}`;
  try {
    await (options.fs ?? nodeFs).rename(path, target);
    return target;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
