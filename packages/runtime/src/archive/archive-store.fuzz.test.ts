import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import {
  cleanupTempDirs,
  createFaultyFs,
  fuzzSettings,
  fuzzTimeout,
  makeTempDir,
} from '@hankweave/durable-io/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ArchiveLocation,
  moveToArchive,
  readArchiveManifest,
  restoreFromArchive,
} from './archive-store.js';

afterAll(cleanupTempDirs);

type Tree = Record<string, string>;

const PATHS = ['x', 'y', 'a/x', 'a/y', 'a/c/x', 'a/c/z', 'b/x', 'b/c/y'];
// Files, directories, nested ones and a missing one.
const SOURCES = [...PATHS, 'a', 'a/c', 'b', 'missing', 'b/c'];

const treeArb = fc.dictionary(fc.constantFrom(...PATHS), fc.string({ maxLength: 12 }), {
  maxKeys: PATHS.length,
});
const sourcesArb = fc.uniqueArray(fc.constantFrom(...SOURCES), { maxLength: 5 });

/** A tree whose keys never put a file where another needs a directory (`a` file and `a/x`). */
function consistent(tree: Tree): Tree {
  const out: Tree = {};
  for (const [path, content] of Object.entries(tree)) {
    const clashes = Object.keys(out).some(
      (other) => other.startsWith(`${path}/`) || path.startsWith(`${other}/`),
    );
    if (!clashes) out[path] = content;
  }
  return out;
}

function readTree(dir: string): Tree {
  const out: Tree = {};
  const walk = (current: string, prefix: string) => {
    if (!existsSync(current)) return;
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (lstatSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = readFileSync(path, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

function writeTree(dir: string, tree: Tree): void {
  for (const [path, content] of Object.entries(tree)) {
    const full = join(dir, path);
    const inTheWay = dirname(path)
      .split('/')
      .map((_, index, parts) => join(dir, ...parts.slice(0, index + 1)))
      .find((parent) => existsSync(parent) && !lstatSync(parent).isDirectory());
    if (inTheWay) rmSync(inTheWay);
    if (existsSync(full) && lstatSync(full).isDirectory()) rmSync(full, { recursive: true });
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

const under = (path: string, source: string) => path === source || path.startsWith(`${source}/`);

// Two archivings (the second one crashed at a random step, or not at all), then one healthy
// restore of everything: agentRoot ends as it was before the second archiving, with what the
// first archiving moved put back as it was then (a restored directory replaces the whole folder).
describe('archive store under random trees, sources and crashes', () => {
  it(
    'a restore after any crash gives back exactly the files archived',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          treeArb,
          treeArb,
          sourcesArb,
          sourcesArb,
          fc.nat({ max: 120 }),
          async (first, second, sources1, sources2, crashAt) => {
            const { path: root } = await makeTempDir('archive-fuzz-');
            const location: ArchiveLocation = {
              executionDir: root,
              agentRoot: join(root, 'agentRoot'),
              rigArchive: join(root, 'rigArchive'),
              manifestPath: join(root, '.hankweave', 'archive-manifest.json'),
              dataLinkName: 'read_only_data_source',
            };
            mkdirSync(location.agentRoot, { recursive: true });
            mkdirSync(location.rigArchive, { recursive: true });
            mkdirSync(dirname(location.manifestPath), { recursive: true });
            writeTree(location.agentRoot, consistent(first));
            const s0 = readTree(location.agentRoot);
            const base = { codonId: 'c', checkpointSha: null, timestamp: '2026-01-01T00:00:00Z' };
            const r1 = await moveToArchive(location, {
              ...base,
              sources: sources1,
              archiveDir: 'one',
            });
            writeTree(location.agentRoot, consistent(second));
            const s1 = readTree(location.agentRoot);
            const fs = createFaultyFs({ failAt: 'any', after: crashAt, mode: 'crash' });
            await moveToArchive(
              { ...location, fs },
              { ...base, sources: sources2, archiveDir: 'two' },
            ).catch(() => undefined);

            // Nothing sits in rigArchive without an entry that covers it.
            const entries = (await readArchiveManifest(location)).entries;
            for (const path of Object.keys(readTree(location.rigArchive))) {
              const covered = entries.some((entry) =>
                under(`rigArchive/${path}`, entry.archivePath),
              );
              expect(covered, path).toBe(true);
            }

            await restoreFromArchive(location, () => true);
            const expected: Tree = { ...s1 };
            for (const source of r1.archivedPaths) {
              for (const path of Object.keys(expected))
                if (under(path, source)) delete expected[path];
              for (const [path, content] of Object.entries(s0))
                if (under(path, source)) expected[path] = content;
            }
            expect(readTree(location.agentRoot)).toEqual(expected);
            expect((await readArchiveManifest(location)).entries).toEqual([]);
            expect(readTree(location.rigArchive)).toEqual({});
            rmSync(root, { recursive: true, force: true });
          },
        ),
        fuzzSettings(40),
      );
    },
    fuzzTimeout(40, 200),
  );
});
