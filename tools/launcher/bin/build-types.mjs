#!/usr/bin/env node
// The declarations (.d.ts) of every package, after `turbo run build` wrote their JS: one
// `tsc --build` over each package's tsconfig.build.json (src only, declarations only), in
// dependency order. tsup's own declaration build did this per package and per entry, parsing the
// shared declarations (Node's, zod's, the workspace's) again each time: about 320 s of CPU for
// the workspace against about 80 s here. tsc --build skips a package whose declarations are newer
// than its sources, and rewrites those that tsup's clean build removed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { declarationProjects } from '../src/declaration-projects.mjs';
import { REPO_ROOT } from '../src/paths.mjs';

let projects;
try {
  projects = declarationProjects(REPO_ROOT);
} catch (error) {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}
const started = Date.now();
const tsc = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
const child = spawn(tsc, ['--build', ...projects], { cwd: REPO_ROOT, stdio: 'inherit' });
child.on('close', (code, signal) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const verdict = code === 0 ? 'written' : 'FAILED';
  process.stdout.write(
    `types: ${projects.length} packages' declarations ${verdict} in ${seconds}s\n`,
  );
  process.exitCode = code ?? (signal ? 1 : 0);
});
