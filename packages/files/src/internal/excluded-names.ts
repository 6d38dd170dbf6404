/**
 * Entry names that are never listed, at any depth and whatever their type: git metadata (a
 * nested repository's `.git` too, and the `.git` file of a worktree), the data source (often a
 * symlink, hence "any type"), the runtime's own directory and the checkpoint repository.
 */
export const ALWAYS_EXCLUDED_NAMES: readonly string[] = Object.freeze([
  '.git',
  'read_only_data_source',
  '.hankweave',
  '.hankweavecheckpoints',
]);

/** Anything named like the checkpoint git dir (`.hankweavecheckpoints.lock`, `-old`...) too. */
const CHECKPOINT_PREFIX = '.hankweavecheckpoints';

/**
 * The marker files a `TreeWatcher` writes at the root for a moment to know its events are all in
 * (`.hankweave-settle-<pid>-<n>`): never listed, so a scan or a checkpoint never sees one.
 */
export const COOKIE_PREFIX = '.hankweave-settle-';

/** Builds the per-entry exclusion test; `extra` names come from the resolver's options. */
export function createExcludedNameTest(extra: readonly string[] = []): (name: string) => boolean {
  const names = new Set([...ALWAYS_EXCLUDED_NAMES, ...extra]);
  return (name) =>
    names.has(name) || name.startsWith(CHECKPOINT_PREFIX) || name.startsWith(COOKIE_PREFIX);
}
