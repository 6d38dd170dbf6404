/** isomorphic-git and its Node HTTP client, loaded on first use (importing them takes time). */
let loaded: Promise<typeof import('isomorphic-git')> | undefined;
let loadedHttp: Promise<typeof import('isomorphic-git/http/node')> | undefined;

export function isomorphicGit(): Promise<typeof import('isomorphic-git')> {
  loaded ??= import('isomorphic-git');
  return loaded;
}

export function isomorphicHttp(): Promise<typeof import('isomorphic-git/http/node')> {
  loadedHttp ??= import('isomorphic-git/http/node');
  return loadedHttp;
}
