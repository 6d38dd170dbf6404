import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DataGuard } from './data-guard.js';
import { describeDataChange } from './describe-data-change.js';

afterEach(cleanupTempDirs);

/** A user's data dir and an agentRoot whose read_only_data_source links to it or copies it. */
async function world(linkType: 'symlink' | 'copy', files: Record<string, string>) {
  const { path: root } = await makeTempDir('data-guard-');
  const data = join(root, 'data');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(data, name, '..'), { recursive: true });
    writeFileSync(join(data, name), content);
  }
  mkdirSync(data, { recursive: true });
  const agentRoot = join(root, 'agentRoot');
  mkdirSync(agentRoot);
  const dataLink = join(agentRoot, 'read_only_data_source');
  if (linkType === 'symlink') symlinkSync(data, dataLink);
  else cpSync(data, dataLink, { recursive: true });
  const guard = DataGuard.open({ dataLink, linkType, originalPath: data });
  if (!guard) throw new Error('no guard');
  return { data, dataLink, guard };
}

describe('DataGuard', () => {
  describe('check()', () => {
    it('finds a file written through the link in the user\u2019s data', async () => {
      const { data, dataLink, guard } = await world('symlink', { 'notes.md': 'n' });
      expect(guard.check()).toEqual([]);
      writeFileSync(join(dataLink, 'shell.txt'), 'x');
      expect(existsSync(join(data, 'shell.txt'))).toBe(true);
      expect(guard.check()).toEqual([{ path: 'shell.txt', kind: 'created' }]);
    });

    it.runIf(process.getuid?.() === 0)(
      'relies on no file mode: root writing into read-only files and directories is found',
      async () => {
        const { dataLink, guard } = await world('symlink', { 'locked/file.txt': 'before' });
        chmodSync(join(dataLink, 'locked/file.txt'), 0o444);
        chmodSync(join(dataLink, 'locked'), 0o555);
        const lockedGuard = DataGuard.open({ dataLink, linkType: 'symlink' });
        writeFileSync(join(dataLink, 'locked/file.txt'), 'after!');
        writeFileSync(join(dataLink, 'locked/new.txt'), 'root ignores modes');
        expect(lockedGuard?.check()).toEqual([
          { path: 'locked/file.txt', kind: 'modified' },
          { path: 'locked/new.txt', kind: 'created' },
        ]);
        expect(guard.check().length).toBeGreaterThan(0);
      },
    );

    it('finds the link itself removed, though the user\u2019s data is intact', async () => {
      const { dataLink, guard } = await world('symlink', { 'a.txt': 'a' });
      rmSync(dataLink);
      mkdirSync(dataLink);
      expect(guard.check()).toEqual([{ path: '', kind: 'modified' }]);
    });

    it('is not opened when there is no data source', async () => {
      const { path } = await makeTempDir('data-guard-none-');
      expect(
        DataGuard.open({ dataLink: join(path, 'read_only_data_source'), linkType: 'symlink' }),
      ).toBeUndefined();
    });
  });

  describe('restore()', () => {
    it('puts a copied data source back as the original is, leaving the original alone', async () => {
      const { data, dataLink, guard } = await world('copy', {
        'edit.md': 'original',
        'gone.md': 'gone',
        'dir/deep.txt': 'deep',
      });
      writeFileSync(join(dataLink, 'edit.md'), 'changed by the agent');
      rmSync(join(dataLink, 'gone.md'));
      rmSync(join(dataLink, 'dir'), { recursive: true });
      mkdirSync(join(dataLink, 'made/sub'), { recursive: true });
      writeFileSync(join(dataLink, 'made/sub/new.txt'), 'new');
      const changes = guard.check();
      expect(changes.map((change) => `${change.kind} ${change.path}`)).toEqual([
        'deleted dir',
        'deleted dir/deep.txt',
        'modified edit.md',
        'deleted gone.md',
        'created made',
        'created made/sub',
        'created made/sub/new.txt',
      ]);
      const result = await guard.restore(changes);
      expect(result.failed).toEqual([]);
      expect(result.restored).toEqual(['dir', 'edit.md', 'gone.md', 'made']);
      expect(readFileSync(join(dataLink, 'edit.md'), 'utf8')).toBe('original');
      expect(readFileSync(join(dataLink, 'gone.md'), 'utf8')).toBe('gone');
      expect(readFileSync(join(dataLink, 'dir/deep.txt'), 'utf8')).toBe('deep');
      expect(existsSync(join(dataLink, 'made'))).toBe(false);
      expect(readFileSync(join(data, 'edit.md'), 'utf8')).toBe('original');
      expect(existsSync(join(data, 'made'))).toBe(false);
    });

    it('restores a copy whose whole directory was removed', async () => {
      const { dataLink, guard } = await world('copy', { 'a.txt': 'a' });
      rmSync(dataLink, { recursive: true });
      const result = await guard.restore(guard.check());
      expect(result.restored).toEqual(['']);
      expect(readFileSync(join(dataLink, 'a.txt'), 'utf8')).toBe('a');
    });

    it('restores the copy of a single-file data source', async () => {
      const { path: root } = await makeTempDir('data-guard-file-');
      const original = join(root, 'input.csv');
      writeFileSync(original, 'a,b\n');
      const dataLink = join(root, 'agentRoot', 'read_only_data_source');
      mkdirSync(dataLink, { recursive: true });
      cpSync(original, join(dataLink, 'input.csv'));
      const guard = DataGuard.open({ dataLink, linkType: 'copy', originalPath: original });
      writeFileSync(join(dataLink, 'input.csv'), 'tampered');
      writeFileSync(join(dataLink, 'extra.txt'), 'x');
      const result = await guard?.restore(guard.check());
      expect(result?.failed).toEqual([]);
      expect(readFileSync(join(dataLink, 'input.csv'), 'utf8')).toBe('a,b\n');
      expect(existsSync(join(dataLink, 'extra.txt'))).toBe(false);
    });

    it('refuses to restore the user\u2019s own data (a symlink)', async () => {
      const { guard } = await world('symlink', { 'a.txt': 'a' });
      expect(guard.restorable).toBe(false);
      expect(() => guard.restore([])).toThrow(/user's own data/);
    });
  });
});

describe('describeDataChange()', () => {
  const changes = Array.from({ length: 12 }, (_, index) => ({
    path: `f${String(index).padStart(2, '0')}.txt`,
    kind: 'created' as const,
  }));

  it('names ten paths and the count, who did it and what to do', () => {
    const message = describeDataChange({
      changes,
      after: 'the Bash tool call toolu_1',
      originalPath: '/home/me/data',
    });
    expect(message).toContain(
      'The data source changed after the Bash tool call toolu_1: 12 paths: read_only_data_source/f00.txt (created),',
    );
    expect(message).toContain('read_only_data_source/f09.txt (created), and 2 more.');
    expect(message).not.toContain('f10.txt');
    expect(message).toContain(
      "hankweave never writes there; the agent or a rig command did. Check the hank's rig commands and prompts",
    );
    expect(message).toContain('links to your own data (/home/me/data)');
  });

  it('says when a copy was restored', () => {
    const message = describeDataChange({
      changes: changes.slice(0, 1),
      after: 'rig operation 1',
      restore: { restored: ['f00.txt'], failed: [] },
    });
    expect(message).toContain('1 path: read_only_data_source/f00.txt (created).');
    expect(message).toContain('The copy in read_only_data_source was restored from the original');
  });
});
