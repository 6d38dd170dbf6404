import { readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { makeTempDir, spawnChild, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/helpers/built-package.js';
import { sessionLayout } from './layout.js';
import { SessionRegistry } from './registry.js';

const CHILD = fileURLToPath(new URL('../test/children/crash-child.mjs', import.meta.url));
// proper-lockfile's smallest stale time.
const STALE_MS = 2_000;

let dir: TempDir;
beforeAll(() => ensureBuilt(), 120_000);
beforeEach(async () => {
  dir = await makeTempDir('sessions-crash-');
});
afterEach(() => dir.cleanup());

describe('SessionRegistry when a writer is SIGKILLed holding the lock', () => {
  it('keeps the previous registry readable, then takes the stale lock over', async () => {
    const child = spawnChild(CHILD, [dir.path, String(STALE_MS)]);
    const exit = await child.exited;
    expect(exit.signal, exit.stderr).toBe('SIGKILL');
    expect(exit.lines).toEqual(['registered', 'dying']);

    // Killed after its temp file was written, before the rename: the old content stands.
    const layout = sessionLayout(dir.path);
    const names = await readdir(layout.claudeDir);
    expect(names.some((name) => /^loop-sessions\.json\.[0-9a-f]{12}\.tmp$/.test(name))).toBe(true);
    expect((await stat(layout.registryLockFile)).isDirectory()).toBe(true);
    const registry = new SessionRegistry(dir.path, {
      lockStaleMs: STALE_MS,
      lockTimeoutMs: 10_000,
    });
    expect((await registry.read()).sessions['loop-before']?.status).toBe('running');

    // The next update waits for the lock to go stale, takes it over, and cleans up.
    const started = Date.now();
    await registry.setStatus('loop-before', 'completed');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await registry.read()).sessions['loop-before']?.status).toBe('completed');
    expect(await readdir(layout.claudeDir)).toEqual(['loop-sessions.json']);
  }, 30_000);
});
