import { chmodSync, mkdtempSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A fresh directory under the system temp dir; remove it with `cleanup()` or `await using`. */
export interface TempDir {
  readonly path: string;
  /** Removes the directory and everything in it. Idempotent. */
  cleanup(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const live = new Set<TempDir>();

/** Creates a temporary directory named `{prefix}XXXXXX`. */
export async function makeTempDir(prefix = 'hankweave-test-'): Promise<TempDir> {
  return track(await mkdtemp(join(tmpdir(), prefix)));
}

/** {@link makeTempDir} for a synchronous setup; `cleanupTempDirs` removes it too. */
export function makeTempDirSync(prefix = 'hankweave-test-'): TempDir {
  return track(mkdtempSync(join(tmpdir(), prefix)));
}

function track(path: string): TempDir {
  const cleanup = async (): Promise<void> => {
    live.delete(dir);
    await rm(path, { recursive: true, force: true });
  };
  const dir: TempDir = { path, cleanup, [Symbol.asyncDispose]: cleanup };
  live.add(dir);
  return dir;
}

/**
 * Copies a fixture tree (`{fixturesDir}/{name}`) into a fresh temporary directory, so tests never
 * change fixtures in place (isomorphic-git's `makeFixture`).
 */
export async function useFixture(
  fixturesDir: string | URL,
  name: string,
  prefix = 'hankweave-fixture-',
): Promise<TempDir> {
  const dir = await makeTempDir(prefix);
  const base = typeof fixturesDir === 'string' ? fixturesDir : fileURLToPath(fixturesDir);
  await cp(join(base, name), dir.path, { recursive: true });
  return dir;
}

/** Removes every temporary directory made here and not yet cleaned up (for `afterEach`). */
export async function cleanupTempDirs(): Promise<void> {
  await Promise.all([...live].map((dir) => dir.cleanup()));
}

/**
 * Runs `fn` with `TMPDIR` (and so `os.tmpdir()`) set to a fresh directory, then removes that
 * directory and restores `TMPDIR`. For code that makes temp directories and leaves them, as a
 * README's quick start does for its reader. The directory is traversable (0755, like /tmp) so
 * servers that drop to another user, such as Postgres's initdb, can still reach theirs.
 */
export async function withPrivateTmpdir<T>(fn: () => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'hankweave-tmpdir-'));
  chmodSync(dir, 0o755);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    await rm(dir, { recursive: true, force: true });
  }
}
