import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The tests run the built binary: build it first when dist/ is missing or older than its sources. */
export default function setup(): void {
  const bin = join(root, 'dist', 'bin.js');
  // The bundle holds the dashboard's server too (@hankweave/dashboard/server).
  const sources = [join(root, 'src'), join(root, '..', 'dashboard', 'server')];
  if (existsSync(bin) && statSync(bin).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  const tsup = createRequire(import.meta.url).resolve('tsup/dist/cli-default.js');
  execFileSync(process.execPath, [tsup], { cwd: root, stdio: 'inherit' });
}
