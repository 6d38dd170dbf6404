import { execFile } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveClaudeBinary } from './resolve-claude-binary.js';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const STUB = '#!/bin/sh\necho "claude native binary not installed" >&2\nexit 1\n';

async function executable(path: string, text: string): Promise<string> {
  await writeFile(path, text);
  await chmod(path, 0o755);
  return path;
}

/** A claude-code package whose bin is the placeholder, optionally with a platform package. */
async function fakePackage(options: { platformBinary?: string } = {}) {
  const root = (await makeTempDir('hw-bin-')).path;
  const pkg = join(root, 'claude-code');
  await mkdir(join(pkg, 'bin'), { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@anthropic-ai/claude-code', bin: { claude: 'bin/claude.exe' } }),
  );
  await executable(join(pkg, 'bin', 'claude.exe'), STUB);
  if (options.platformBinary) {
    const platform = join(
      pkg,
      'node_modules',
      '@anthropic-ai',
      `claude-code-${process.platform}-${process.arch}`,
    );
    await mkdir(platform, { recursive: true });
    await writeFile(join(platform, 'package.json'), '{}');
    await symlink(options.platformBinary, join(platform, 'claude'));
  }
  return { root, packageJson: join(pkg, 'package.json') };
}

describe('resolveClaudeBinary()', () => {
  afterEach(cleanupTempDirs);

  it('finds the native binary of the installed @anthropic-ai/claude-code', async () => {
    const found = await resolveClaudeBinary({ env: {} });
    expect(found.source).toBe('package-bin');
    expect(found.path).toMatch(/claude(\.exe)?$/);
  });

  it('uses an explicit path, or fails naming it without trying anything else', async () => {
    const real = (await resolveClaudeBinary({ env: {} })).path;
    expect(await resolveClaudeBinary({ explicitPath: real, env: {} })).toEqual({
      path: real,
      source: 'option',
    });
    await expect(
      resolveClaudeBinary({ explicitPath: '/nope/claude', env: {} }),
    ).rejects.toMatchObject({
      code: 'HARNESS_BINARY_NOT_FOUND',
      message: expect.stringContaining('the claudePath option /nope/claude'),
    });
  });

  it('uses HANKWEAVE_CLAUDE_PATH, refusing the placeholder stub', async () => {
    const { root } = await fakePackage();
    const stub = await executable(join(root, 'stub'), STUB);
    await expect(
      resolveClaudeBinary({ env: { HANKWEAVE_CLAUDE_PATH: stub } }),
    ).rejects.toMatchObject({
      code: 'HARNESS_BINARY_NOT_FOUND',
      message: expect.stringContaining('placeholder'),
    });
  });

  it('falls back to the platform package next to a placeholder bin', async () => {
    const real = (await resolveClaudeBinary({ env: {} })).path;
    const { packageJson } = await fakePackage({ platformBinary: real });
    const found = await resolveClaudeBinary({
      env: { PATH: '' },
      resolvePackageJson: () => packageJson,
    });
    expect(found.source).toBe('platform-package');
  });

  it('falls back to claude on PATH, and lists everything tried when nothing works', async () => {
    const { root, packageJson } = await fakePackage();
    const pathDir = join(root, 'path-bin');
    await mkdir(pathDir);
    // pnpm puts its store on NODE_PATH, where the real platform package would be found: run
    // without it, as a user's process would.
    const script = `
      import { resolveClaudeBinary } from ${JSON.stringify(pathToFileURL(DIST).href)};
      const options = { env: { PATH: ${JSON.stringify(pathDir)} }, resolvePackageJson: () => ${JSON.stringify(packageJson)} };
      const first = await resolveClaudeBinary(options).catch((error) => ({ code: error.code, message: error.message }));
      await (await import('node:fs/promises')).writeFile(${JSON.stringify(join(pathDir, 'claude'))}, '#!/bin/sh\\n# ' + 'x'.repeat(5000) + '\\nexec true\\n', { mode: 0o755 });
      const second = await resolveClaudeBinary(options);
      process.stdout.write(JSON.stringify({ first, second }));`;
    const env = { ...process.env };
    delete env.NODE_PATH;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env },
    );
    const { first, second } = JSON.parse(stdout);
    expect(first.code).toBe('HARNESS_BINARY_NOT_FOUND');
    expect(first.message).toMatch(/placeholder.*not installed.*claude on PATH/s);
    expect(first.message).toContain('HANKWEAVE_CLAUDE_PATH');
    // A wrapper script bigger than the placeholder is accepted from PATH.
    expect(second).toEqual({ path: join(pathDir, 'claude'), source: 'path' });
  });
});
