import { FilesError } from '../errors.js';
import { TreeWatcher, type TreeWatcherOptions } from '../tree-watcher.js';

/**
 * A watcher on `root`, or none where a caller walks instead: a property test that restarts its
 * watcher within one process meets roots whose earlier watcher left its native tree behind (a
 * tree moved out of the root and deleted there), which `TreeWatcher.start` refuses. Any other
 * failure is thrown.
 */
export async function startWatcherOrWalk(
  root: string,
  options?: TreeWatcherOptions,
): Promise<TreeWatcher | undefined> {
  try {
    return await TreeWatcher.start(root, options);
  } catch (error) {
    if (FilesError.is(error) && error.details?.leftBehind === true) return undefined;
    throw error;
  }
}
