/**
 * isomorphic-git, loaded on first use. Importing it costs ~100 ms on an idle machine (and five
 * times that under load) while a process that only opens, checkpoints and restores never needs
 * it: the engine reads its own loose objects, undeltified packs and loose refs directly.
 */
let loaded: Promise<typeof import('isomorphic-git')> | undefined;

export function isomorphicGit(): Promise<typeof import('isomorphic-git')> {
  loaded ??= import('isomorphic-git');
  return loaded;
}
