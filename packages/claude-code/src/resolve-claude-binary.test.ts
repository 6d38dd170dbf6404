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

/**
 * A claude-code package whose bin is the placeholder (or a link to `binBinary`), optionally with a
 * platform package; `root` has no platform package of its own, for `resolveFrom`.
 */
async function fakePackage(options: { platformBinary?: string; binBinary?: string } = {}) {
  const root = (await makeTempDir('hw-bin-')).path;
  const pkg = join(root, 'claude-code');
  await mkdir(join(pkg, 'bin'), { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@anthropic-ai/claude-code', bin: { claude: 'bin/claude.exe' } }),
  );
  if (options.binBinary) await symlink(options.binBinary, join(pkg, 'bin', 'claude.exe'));
  else await executable(join(pkg, 'bin', 'claude.exe'), STUB);
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

/**
 * `resolveClaudeBinary` in a child process without NODE_PATH: pnpm puts its store there, where
 * the real platform package would be found from any directory, which a user's process would not.
 */
async function resolveInChild(options: {
  path: string;
  packageJson: string;
  resolveFrom: string;
}): Promise<{ path?: string; source?: string; code?: string; message?: string }> {
  const script = `
    import { resolveClaudeBinary } from ${JSON.stringify(pathToFileURL(DIST).href)};
    const options = { env: { PATH: ${JSON.stringify(options.path)} }, resolvePackageJson: () => ${JSON.stringify(options.packageJson)}, resolveFrom: ${JSON.stringify(options.resolveFrom)} };
    const found = await resolveClaudeBinary(options).catch((error) => ({ code: error.code, message: error.message }));
    process.stdout.write(JSON.stringify(found));`;
  const env = { ...process.env };
  delete env.NODE_PATH;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    { env },
  );
  return JSON.parse(stdout);
}

describe('resolveClaudeBinary()', () => {
  afterEach(cleanupTempDirs);

  it('finds the native binary of its own platform dependency', async () => {
    const found = await resolveClaudeBinary({ env: {} });
    expect(found.source).toBe('platform-package');
    expect(found.path).toMatch(
      new RegExp(`claude-code-${process.platform}-${process.arch}(-musl)?/claude(\\.exe)?$`),
    );
  });

  it('without its own platform package, takes the bin of @anthropic-ai/claude-code', async () => {
    const real = (await resolveClaudeBinary({ env: {} })).path;
    const { root, packageJson } = await fakePackage({ binBinary: real });
    expect(await resolveInChild({ path: '', packageJson, resolveFrom: root })).toEqual({
      path: join(root, 'claude-code', 'bin', 'claude.exe'),
      source: 'package-bin',
    });
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
    const { root, packageJson } = await fakePackage({ platformBinary: real });
    const found = await resolveInChild({ path: '', packageJson, resolveFrom: root });
    expect(found.source).toBe('platform-package');
    expect(found.path?.startsWith(join(root, 'claude-code', 'node_modules'))).toBe(true);
  });

  it('falls back to claude on PATH, and lists everything tried when nothing works', async () => {
    const { root, packageJson } = await fakePackage();
    const pathDir = join(root, 'path-bin');
    await mkdir(pathDir);
    const options = { path: pathDir, packageJson, resolveFrom: root };
    const first = await resolveInChild(options);
    // A wrapper script bigger than the placeholder is accepted from PATH.
    await writeFile(join(pathDir, 'claude'), `#!/bin/sh\n# ${'x'.repeat(5000)}\nexec true\n`, {
      mode: 0o755,
    });
    const second = await resolveInChild(options);
    expect(first.code).toBe('HARNESS_BINARY_NOT_FOUND');
    expect(first.message).toMatch(
      /a dependency of @hankweave\/claude-code\): not installed.*placeholder.*next to @anthropic-ai\/claude-code\): not installed.*claude on PATH/s,
    );
    expect(first.message).toContain('HANKWEAVE_CLAUDE_PATH');
    expect(second).toEqual({ path: join(pathDir, 'claude'), source: 'path' });
  });
});
