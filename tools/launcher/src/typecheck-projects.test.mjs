import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typecheckProjects } from './typecheck-projects.mjs';

let root;
const write = (path, text) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
const pkg = (dir, typecheck) =>
  write(
    `${dir}/package.json`,
    JSON.stringify({ name: dir, scripts: typecheck ? { typecheck } : {} }),
  );

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'typecheck-projects-'));
  write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n  - "apps/*"\n\ncatalog:\n  x: 1\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('typecheckProjects', () => {
  it("wraps every project of every package's typecheck script, in workspace order", () => {
    pkg('packages/b', 'tsc');
    pkg('packages/a', 'tsc');
    pkg('packages/no-types');
    pkg('apps/web', 'tsc && tsc -p server/tsconfig.json');
    mkdirSync(join(root, 'packages', 'not-a-package'));
    const projects = typecheckProjects(root);
    expect(projects).toEqual([
      'packages/a/node_modules/.cache/typecheck/tsconfig.json',
      'packages/b/node_modules/.cache/typecheck/tsconfig.json',
      'apps/web/node_modules/.cache/typecheck/tsconfig.json',
      'apps/web/node_modules/.cache/typecheck/server__tsconfig.json',
    ]);
    // The wrapper extends the package's own tsconfig and only adds incremental checking.
    expect(JSON.parse(readFileSync(join(root, projects[3]), 'utf8'))).toEqual({
      extends: join(root, 'apps/web/server/tsconfig.json'),
      compilerOptions: {
        incremental: true,
        tsBuildInfoFile: join(root, `${projects[3]}.tsbuildinfo`),
      },
    });
  });

  it('keeps the build info of an unchanged wrapper, and drops it when the wrapper changes', () => {
    pkg('packages/a', 'tsc');
    const [project] = typecheckProjects(root);
    const info = join(root, `${project}.tsbuildinfo`);
    writeFileSync(info, '{}');
    typecheckProjects(root);
    expect(existsSync(info)).toBe(true);
    writeFileSync(join(root, project), '{"extends": "elsewhere"}\n');
    typecheckProjects(root);
    expect(existsSync(info)).toBe(false);
  });

  it('refuses a typecheck script it cannot fold, naming the package', () => {
    pkg('packages/a', 'tsc');
    pkg('packages/odd', 'vue-tsc --noEmit');
    expect(() => typecheckProjects(root)).toThrow(
      /packages\/odd: its typecheck script "vue-tsc --noEmit" is not plain/,
    );
  });

  it('refuses a workspace pattern other than <dir>/*', () => {
    write('pnpm-workspace.yaml', 'packages:\n  - packages/**\n');
    expect(() => typecheckProjects(root)).toThrow(/only knows "<dir>\/\*" patterns, not packages/);
  });
});
