import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanupTempDirs, createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { archiveManifestSchema } from '@hankweave/types';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ArchiveLocation,
  type ArchiveRequest,
  moveToArchive,
  readArchiveManifest,
  restoreFromArchive,
} from './archive-store.js';

afterAll(cleanupTempDirs);

/** An execution dir with agentRoot (files below), rigArchive, a manifest, and a data link. */
async function fixture(files: Record<string, Buffer | string>) {
  const { path: root } = await makeTempDir('archive-store-');
  const executionDir = join(root, 'exec');
  const location: ArchiveLocation = {
    executionDir,
    agentRoot: join(executionDir, 'agentRoot'),
    rigArchive: join(executionDir, 'rigArchive'),
    manifestPath: join(executionDir, '.hankweave', 'archive-manifest.json'),
    dataLinkName: 'read_only_data_source',
  };
  for (const dir of [location.agentRoot, location.rigArchive, dirname(location.manifestPath)]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(location.manifestPath, '{"version":"1.0.0","entries":[]}\n');
  const dataDir = join(root, 'user-data');
  mkdirSync(join(dataDir, 'sub'), { recursive: true });
  writeFileSync(join(dataDir, 'precious.csv'), 'a,b\n');
  writeFileSync(join(dataDir, 'sub', 'deep.txt'), 'deep');
  symlinkSync(dataDir, join(location.agentRoot, 'read_only_data_source'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(location.agentRoot, path)), { recursive: true });
    writeFileSync(join(location.agentRoot, path), content);
  }
  return { location, dataDir, executionDir };
}

const request = (sources: string[], overrides: Partial<ArchiveRequest> = {}): ArchiveRequest => ({
  sources,
  archiveDir: 'gen',
  codonId: 'gen',
  checkpointSha: 'a'.repeat(40),
  timestamp: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** Every file under `dir`, relative, with its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string, prefix: string) => {
    if (!existsSync(current)) return;
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) continue;
      if (stat.isDirectory()) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = readFileSync(path).toString('base64');
    }
  };
  walk(dir, '');
  return out;
}

describe('moveToArchive', () => {
  it('moves files and whole directories, records one entry per path, skips missing sources', async () => {
    const { location } = await fixture({
      'drafts/a.md': 'draft a',
      'src/index.ts': 'code',
      'src/lib/util.ts': 'util',
    });
    const result = await moveToArchive(
      location,
      request(['drafts/a.md', 'src', 'gone.md'], {
        archiveDir: 'polish-1/edit',
        codonId: 'edit#1',
        loopContext: { loopId: 'polish', iteration: 1, codonIndexInLoop: 0 },
      }),
    );
    expect(result).toEqual({ archivedPaths: ['drafts/a.md', 'src'], failedPaths: [] });
    expect(tree(location.agentRoot)).toEqual({});
    expect(Object.keys(tree(location.rigArchive)).sort()).toEqual([
      'polish-1/edit/drafts/a.md',
      'polish-1/edit/src/index.ts',
      'polish-1/edit/src/lib/util.ts',
    ]);
    const manifest = JSON.parse(readFileSync(location.manifestPath, 'utf8'));
    expect(archiveManifestSchema.parse(manifest)).toEqual(manifest);
    expect(manifest).toEqual({
      version: '1.0.0',
      entries: ['drafts/a.md', 'src'].map((sourcePath) => ({
        sourcePath,
        archivePath: `rigArchive/polish-1/edit/${sourcePath}`,
        codonId: 'edit#1',
        loopContext: { loopId: 'polish', iteration: 1, codonIndexInLoop: 0 },
        checkpointSha: 'a'.repeat(40),
        timestamp: '2026-01-01T00:00:00.000Z',
      })),
    });
  });

  it("never moves the user's data: the data link and paths through any symlink are refused", async () => {
    const { location, dataDir } = await fixture({ 'mine.md': 'mine' });
    symlinkSync(join(dataDir, 'sub'), join(location.agentRoot, 'alias'));
    const result = await moveToArchive(
      location,
      request([
        'read_only_data_source/precious.csv',
        'read_only_data_source',
        'alias/deep.txt',
        '../outside',
        'mine.md',
      ]),
    );
    expect(result.archivedPaths).toEqual(['mine.md']);
    expect(result.failedPaths.map((failed) => failed.path)).toEqual([
      'read_only_data_source/precious.csv',
      'read_only_data_source',
      'alias/deep.txt',
      '../outside',
    ]);
    expect(readFileSync(join(dataDir, 'precious.csv'), 'utf8')).toBe('a,b\n');
    expect(readFileSync(join(dataDir, 'sub', 'deep.txt'), 'utf8')).toBe('deep');
    expect(lstatSync(join(location.agentRoot, 'read_only_data_source')).isSymbolicLink()).toBe(
      true,
    );
    const manifest = await readArchiveManifest(location);
    expect(manifest.entries.map((entry) => entry.sourcePath)).toEqual(['mine.md']);
  });

  it('a path that cannot be moved is reported, keeps its file and gets no entry (partial)', async () => {
    const { location } = await fixture({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    const fs = createFaultyFs({ failAt: 'rename', pathIncludes: 'b.txt', code: 'EACCES' });
    const result = await moveToArchive({ ...location, fs }, request(['a.txt', 'b.txt', 'c.txt']));
    expect(result.archivedPaths).toEqual(['a.txt', 'c.txt']);
    expect(result.failedPaths).toEqual([
      { path: 'b.txt', error: expect.stringContaining('EACCES') },
    ]);
    expect(tree(location.agentRoot)).toEqual({ 'b.txt': Buffer.from('b').toString('base64') });
    const manifest = await readArchiveManifest(location);
    expect(manifest.entries.map((entry) => entry.sourcePath)).toEqual(['a.txt', 'c.txt']);
  });

  // Fuzz counterexample (seed 16016): sources ['a', 'a/c'] gave a/c/z two entries; a crash then
  // a restore put a/c/z back and deleted it again when the folder a was restored over it.
  it('a source under another source moves with it and gets no entry of its own', async () => {
    const { location } = await fixture({ 'a/c/z': 'z', 'a/x': 'x' });
    const result = await moveToArchive(location, request(['a/c', 'a', 'a/c/z']));
    expect(result).toEqual({ archivedPaths: ['a'], failedPaths: [] });
    const manifest = await readArchiveManifest(location);
    expect(manifest.entries.map((entry) => entry.sourcePath)).toEqual(['a']);
    await restoreFromArchive(location, () => true);
    expect(tree(location.agentRoot)).toEqual({
      'a/c/z': Buffer.from('z').toString('base64'),
      'a/x': Buffer.from('x').toString('base64'),
    });
  });

  it('a collision overwrites the archived file and its entry', async () => {
    const { location } = await fixture({ 'x.md': 'first' });
    await moveToArchive(location, request(['x.md'], { checkpointSha: '1'.repeat(40) }));
    writeFileSync(join(location.agentRoot, 'x.md'), 'second');
    await moveToArchive(location, request(['x.md'], { checkpointSha: '2'.repeat(40) }));
    expect(readFileSync(join(location.rigArchive, 'gen', 'x.md'), 'utf8')).toBe('second');
    const manifest = await readArchiveManifest(location);
    expect(manifest.entries.map((entry) => entry.checkpointSha)).toEqual(['2'.repeat(40)]);
  });

  it('a corrupt manifest is moved aside, not trusted, and archiving goes on', async () => {
    const { location } = await fixture({ 'x.md': 'x' });
    writeFileSync(location.manifestPath, '{"version": "1.0.0", "entr');
    const result = await moveToArchive(location, request(['x.md']));
    expect(result.archivedPaths).toEqual(['x.md']);
    const names = readdirSync(dirname(location.manifestPath));
    expect(names.some((name) => name.startsWith('archive-manifest.json.corrupt-'))).toBe(true);
    expect((await readArchiveManifest(location)).entries).toHaveLength(1);
  });
});

describe('restoreFromArchive', () => {
  it('moves the selected entries back byte-identical, drops them, prunes empty folders', async () => {
    const binary = randomBytes(4096);
    const { location } = await fixture({ 'bin/blob.dat': binary, 'notes.md': 'n', 'keep.md': 'k' });
    const before = tree(location.agentRoot);
    await moveToArchive(location, request(['bin/blob.dat', 'notes.md']));
    await moveToArchive(
      location,
      request(['keep.md'], {
        archiveDir: 'other',
        codonId: 'other',
        checkpointSha: 'b'.repeat(40),
      }),
    );
    const reports = await restoreFromArchive(location, (entry) => entry.codonId === 'gen');
    expect(reports).toEqual([
      { codonId: 'gen', restoredPaths: ['notes.md', 'bin/blob.dat'], failedPaths: [] },
    ]);
    expect(readFileSync(join(location.agentRoot, 'bin/blob.dat')).equals(binary)).toBe(true);
    expect(existsSync(join(location.rigArchive, 'gen'))).toBe(false);
    expect(existsSync(location.rigArchive)).toBe(true);
    const manifest = await readArchiveManifest(location);
    expect(manifest.entries.map((entry) => entry.codonId)).toEqual(['other']);
    await restoreFromArchive(location, () => true);
    expect(tree(location.agentRoot)).toEqual(before);
    expect(readdirSync(location.rigArchive)).toEqual([]);
  });

  it('when two entries share a source, the oldest content ends up in place', async () => {
    const { location } = await fixture({ 'x.md': 'v1' });
    await moveToArchive(location, request(['x.md'], { archiveDir: 'a', codonId: 'a' }));
    writeFileSync(join(location.agentRoot, 'x.md'), 'v2');
    await moveToArchive(location, request(['x.md'], { archiveDir: 'b', codonId: 'b' }));
    const reports = await restoreFromArchive(location, () => true);
    expect(reports.map((report) => report.codonId)).toEqual(['b', 'a']);
    expect(readFileSync(join(location.agentRoot, 'x.md'), 'utf8')).toBe('v1');
  });
});

// The order chosen (manifest first, then one rename per path) keeps a crash at ANY step
// recoverable: every file is at its source or at the archive path an entry names, and a later
// restore with a healthy file system brings everything back byte-identical.
describe('a crash at every step', () => {
  const files = {
    'a.md': 'alpha',
    'deep/b.bin': randomBytes(2048),
    'src/one.ts': 'one',
    'src/two.ts': 'two',
  };
  const sources = ['a.md', 'deep/b.bin', 'src'];

  async function countOps(run: (location: ArchiveLocation) => Promise<unknown>) {
    const { location } = await fixture(files);
    const fs = createFaultyFs();
    await run({ ...location, fs });
    return fs.trace.length;
  }

  it('of moveToArchive leaves each file at its source or at an entry, and restore recovers all', async () => {
    const total = await countOps((location) => moveToArchive(location, request(sources)));
    expect(total).toBeGreaterThan(10);
    for (let step = 0; step < total; step++) {
      const { location } = await fixture(files);
      const before = tree(location.agentRoot);
      const fs = createFaultyFs({ failAt: 'any', after: step, mode: 'crash' });
      await moveToArchive({ ...location, fs }, request(sources)).catch(() => undefined);
      expect(fs.crashed, `step ${step}`).toBe(true);
      const manifest = await readArchiveManifest(location);
      const named = new Set(manifest.entries.map((entry) => entry.archivePath));
      for (const path of Object.keys(tree(location.rigArchive))) {
        const top = sources.find(
          (source) => path === `gen/${source}` || path.startsWith(`gen/${source}/`),
        );
        expect(named.has(`rigArchive/gen/${top}`), `step ${step}: ${path} has an entry`).toBe(true);
      }
      await restoreFromArchive(location, () => true);
      expect(tree(location.agentRoot), `step ${step}`).toEqual(before);
      expect((await readArchiveManifest(location)).entries, `step ${step}`).toEqual([]);
    }
  });

  it('of restoreFromArchive is finished by the next restore', async () => {
    const prepare = async () => {
      const made = await fixture(files);
      await moveToArchive(made.location, request(sources));
      return made;
    };
    const { location: counted } = await prepare();
    const counter = createFaultyFs();
    await restoreFromArchive({ ...counted, fs: counter }, () => true);
    const total = counter.trace.length;
    for (let step = 0; step < total; step++) {
      const { location } = await prepare();
      const fs = createFaultyFs({ failAt: 'any', after: step, mode: 'crash' });
      await restoreFromArchive({ ...location, fs }, () => true).catch(() => undefined);
      await restoreFromArchive(location, () => true);
      const expected = Object.fromEntries(
        Object.entries(files).map(([path, content]) => [
          path,
          Buffer.from(content).toString('base64'),
        ]),
      );
      expect(tree(location.agentRoot), `step ${step}`).toEqual(expected);
      expect((await readArchiveManifest(location)).entries, `step ${step}`).toEqual([]);
    }
  });
});
