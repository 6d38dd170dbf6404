import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSymlinkOnPath } from './symlink-guard.js';
import { cleanupTempDirs, makeTempDir } from './testing/temp-dir.js';

afterEach(cleanupTempDirs);

describe('findSymlinkOnPath()', () => {
  it('names the first linked component, relative to the root', async () => {
    const dir = await makeTempDir('symlink-guard-');
    const root = join(dir.path, 'root');
    mkdirSync(join(root, 'real', 'deeper'), { recursive: true });
    mkdirSync(join(dir.path, 'outside'));
    symlinkSync(join(dir.path, 'outside'), join(root, 'real', 'planted'));
    expect(await findSymlinkOnPath(root, 'real/planted/x/y')).toBe('real/planted');
    expect(await findSymlinkOnPath(root, 'real/deeper/file')).toBeUndefined();
    // The last component may be allowed to be a link (it is then removed, not followed).
    expect(await findSymlinkOnPath(root, 'real/planted', { includeLast: false })).toBeUndefined();
    expect(await findSymlinkOnPath(root, 'real/planted')).toBe('real/planted');
  });

  it('stops at a missing component, and trusts the root itself', async () => {
    const dir = await makeTempDir('symlink-guard-');
    mkdirSync(join(dir.path, 'real'));
    symlinkSync(join(dir.path, 'real'), join(dir.path, 'root-link'));
    writeFileSync(join(dir.path, 'real', 'f'), '');
    expect(await findSymlinkOnPath(join(dir.path, 'root-link'), 'f')).toBeUndefined();
    expect(await findSymlinkOnPath(join(dir.path, 'real'), 'missing/a/b')).toBeUndefined();
  });

  it('reports a path that climbs out of the root as itself', async () => {
    expect(await findSymlinkOnPath('/tmp', '../etc/passwd')).toBe('../etc/passwd');
    expect(await findSymlinkOnPath('/tmp', '/etc/passwd')).toBe('/etc/passwd');
  });
});
