import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { declarationProjects } from './declaration-projects.mjs';

let root;
const write = (path, text) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
/** A package `@w/<name>` in packages/<name>, depending on `deps`, with a declaration project. */
const pkg = (name, deps = {}, { project = true } = {}) => {
  write(`packages/${name}/package.json`, JSON.stringify({ name: `@w/${name}`, ...deps }));
  if (project) write(`packages/${name}/tsconfig.build.json`, '{}');
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'declaration-projects-'));
  write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n  - apps/*\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('declarationProjects', () => {
  it('puts every package after the workspace packages it depends on, whatever the kind', () => {
    pkg('a-app', { dependencies: { '@w/z-core': 'workspace:*', zod: '^4' } });
    pkg('m-mid', { devDependencies: { '@w/z-core': 'workspace:*' } });
    pkg('b-top', { peerDependencies: { '@w/m-mid': '*' }, dependencies: { '@w/a-app': '*' } });
    pkg('z-core');
    expect(declarationProjects(root)).toEqual([
      'packages/z-core/tsconfig.build.json',
      'packages/a-app/tsconfig.build.json',
      'packages/m-mid/tsconfig.build.json',
      'packages/b-top/tsconfig.build.json',
    ]);
  });

  it('leaves out packages without a declaration project (the apps)', () => {
    pkg('a', { dependencies: { '@w/b': '*' } });
    pkg('b', {}, { project: false });
    pkg('c');
    expect(declarationProjects(root)).toEqual([
      'packages/a/tsconfig.build.json',
      'packages/c/tsconfig.build.json',
    ]);
  });

  it('refuses a dependency cycle, naming its packages', () => {
    pkg('a', { dependencies: { '@w/b': '*' } });
    pkg('b', { dependencies: { '@w/c': '*' } });
    pkg('c', { devDependencies: { '@w/a': '*' } });
    expect(() => declarationProjects(root)).toThrow('@w/a → @w/b → @w/c → @w/a');
  });
});
