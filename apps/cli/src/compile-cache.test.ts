import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCacheDir } from './compile-cache.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const SUPPORTED =
  typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

describe('compileCacheDir', () => {
  it("is node-compile-cache in hankweave's cache directory, and none for a relative one", () => {
    expect(compileCacheDir({ HOME: '/home/u' })).toBe(
      '/home/u/.cache/hankweave/node-compile-cache',
    );
    expect(compileCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: '/var/c' })).toBe(
      '/var/c/hankweave/node-compile-cache',
    );
    expect(compileCacheDir({ HANKWEAVE_CACHE_DIR: '/srv/hw', XDG_CACHE_HOME: '/var/c' })).toBe(
      '/srv/hw/node-compile-cache',
    );
    // Relative to where the command runs, which can be a directory an agent writes.
    expect(compileCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: 'rel/c' })).toBeUndefined();
    expect(compileCacheDir({ HANKWEAVE_CACHE_DIR: 'cache' })).toBeUndefined();
  });
});

/** Runs the built CLI's `--version` in a private home and temporary directory. */
describe(`the built CLI's compile cache on Node ${process.versions.node}`, () => {
  let root: string;
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the CLI first (pnpm build)`);
    root = mkdtempSync(join(tmpdir(), 'hw-compile-cache-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function version(name: string, extra: NodeJS.ProcessEnv = {}, home = join(root, name, 'home')) {
    const tmp = join(root, name, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: tmp, ...extra };
    const unset = [
      'HANKWEAVE_CACHE_DIR',
      'XDG_CACHE_HOME',
      'NODE_COMPILE_CACHE',
      'NODE_DISABLE_COMPILE_CACHE',
    ];
    for (const key of unset) if (!(key in extra)) delete env[key];
    const result = spawnSync(process.execPath, [BIN, '--version'], { env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const cache = compileCacheDir({ HOME: home }) as string;
    return {
      cached: existsSync(cache) ? readdirSync(cache, { recursive: true }).length : 0,
      inSharedTmp: readdirSync(tmp),
    };
  }

  it(
    SUPPORTED
      ? 'keeps the compiled modules in ~/.cache/hankweave, never in the shared temporary directory'
      : 'is off: this Node has no module.enableCompileCache, and nothing is written',
    () => {
      const { cached, inSharedTmp } = version('default');
      if (SUPPORTED) expect(cached).toBeGreaterThan(0);
      else expect(cached).toBe(0);
      expect(inSharedTmp).toEqual([]);
    },
  );

  it('writes nothing under NODE_DISABLE_COMPILE_CACHE=1', () => {
    expect(version('disabled', { NODE_DISABLE_COMPILE_CACHE: '1' }).cached).toBe(0);
  });

  it('writes no cache relative to the working directory (a relative XDG_CACHE_HOME)', () => {
    const cwdCache = join(root, 'relative', 'home', 'rel');
    mkdirSync(join(root, 'relative', 'home'), { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: join(root, 'relative', 'home'),
      XDG_CACHE_HOME: 'rel',
    };
    delete env.HANKWEAVE_CACHE_DIR;
    delete env.NODE_COMPILE_CACHE;
    const result = spawnSync(process.execPath, [BIN, '--version'], {
      cwd: join(root, 'relative', 'home'),
      env,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(existsSync(cwdCache)).toBe(false);
  });

  it('still answers when no cache directory can be made (home under a file)', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    expect(version('no-home', {}, join(file, 'home')).cached).toBe(0);
  });
});
