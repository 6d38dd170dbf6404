// The projects `pnpm build` (bin/build-types.mjs) and `pnpm typecheck` hand to one `tsc --build`
// to emit every package's declarations.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { workspaceDirs } from './typecheck-projects.mjs';

/** A package's declaration project: its src only, .d.ts files next to tsup's JS in dist/. */
export const DECLARATION_PROJECT = 'tsconfig.build.json';

function manifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/**
 * The declaration projects of every workspace package that has one, paths relative to `root`,
 * each after the packages it depends on: a package's declarations import its dependencies' by
 * package name, from their dist/, so those must be written first in the same `tsc --build`
 * (which takes the projects in the order given: they have no project references). Throws,
 * naming the packages, on a dependency cycle.
 */
export function declarationProjects(root) {
  const dirs = workspaceDirs(root).filter((dir) => existsSync(join(dir, DECLARATION_PROJECT)));
  const dirOf = new Map(dirs.map((dir) => [manifest(dir).name, dir]));
  const ordered = [];
  const done = new Set();
  const visit = (dir, path) => {
    if (done.has(dir)) return;
    if (path.includes(dir)) {
      const names = [...path.slice(path.indexOf(dir)), dir].map((d) => manifest(d).name);
      throw new Error(
        `the declarations of ${names.join(' → ')} depend on each other in a cycle: ` +
          'drop one of these dependencies from its package.json',
      );
    }
    const { dependencies, devDependencies, peerDependencies } = manifest(dir);
    for (const name of Object.keys({ ...dependencies, ...devDependencies, ...peerDependencies })) {
      const dependency = dirOf.get(name);
      if (dependency !== undefined && dependency !== dir) visit(dependency, [...path, dir]);
    }
    done.add(dir);
    ordered.push(dir);
  };
  for (const dir of dirs) visit(dir, []);
  return ordered.map((dir) => relative(root, join(dir, DECLARATION_PROJECT)));
}
