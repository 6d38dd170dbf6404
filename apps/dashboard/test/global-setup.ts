import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dashboard = fileURLToPath(new URL('..', import.meta.url));
const cli = join(dashboard, '..', 'cli');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const olderThan = (file: string, ...dirs: string[]): boolean =>
  !existsSync(file) || statSync(file).mtimeMs < Math.max(...dirs.map(newestMtime));

/**
 * The integration tests run the built CLI (`hankweave ui`, and the runs that make executions),
 * which bundles this server and serves this app's build: build whichever is missing or older
 * than its sources (turbo's `test:int` has built both already; this is for a direct vitest run).
 */
export default function setup(): void {
  if (olderThan(join(dashboard, 'dist', 'index.html'), join(dashboard, 'src'))) {
    // vite exports no subpath for its bin: find it beside its package.json.
    const manifest = createRequire(join(dashboard, 'package.json')).resolve('vite/package.json');
    const vite = join(dirname(manifest), 'bin', 'vite.js');
    execFileSync(process.execPath, [vite, 'build'], { cwd: dashboard, stdio: 'inherit' });
  }
  if (olderThan(join(cli, 'dist', 'bin.js'), join(cli, 'src'), join(dashboard, 'server'))) {
    const tsup = createRequire(join(cli, 'package.json')).resolve('tsup/dist/cli-default.js');
    execFileSync(process.execPath, [tsup], { cwd: cli, stdio: 'inherit' });
  }
}
