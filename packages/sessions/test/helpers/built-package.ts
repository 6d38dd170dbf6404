import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lock } from 'proper-lockfile';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/** The built entry child processes import (they run plain node, which cannot load .ts). */
export const BUILT_ENTRY = join(packageDir, 'dist', 'index.js');

function newestSourceMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMs(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

function isBuilt(): boolean {
  let builtMs = 0;
  try {
    builtMs = statSync(BUILT_ENTRY).mtimeMs;
  } catch {
    return false;
  }
  return builtMs >= newestSourceMs(join(packageDir, 'src'));
}

/**
 * Builds the package when dist is missing or older than a source file, so the children run the
 * code under test, not a stale build. (Full build, d.ts included: other packages import it.)
 * Test files run in parallel workers: a lock keeps two builds from cleaning dist under each other.
 */
export async function ensureBuilt(): Promise<void> {
  if (isBuilt()) return;
  const scratch = join(packageDir, '.tmp'); // git-ignored
  mkdirSync(scratch, { recursive: true });
  const release = await lock(packageDir, {
    lockfilePath: join(scratch, 'build.lock'),
    realpath: false,
    retries: { retries: 600, minTimeout: 100, maxTimeout: 100 },
  });
  try {
    if (!isBuilt()) execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
  } finally {
    await release();
  }
}
