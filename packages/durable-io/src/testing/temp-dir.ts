import { mkdtempSync } from 'node:fs';
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
