import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createFaultyFs,
  fuzzSettings,
  fuzzTimeout,
  makeTempDir,
} from '@hankweave/durable-io/testing';
import { UnifiedFileResolver } from '@hankweave/files';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyOutputs, OutputCopyFailure, renamedPath } from './copy-outputs.js';

// Property: whatever the output directory already holds, a copy never changes a file it did not
// write (unless told to overwrite), lands every source under its own name or the first free
// renamed one, leaves no temporary file, and a failure mid-way leaves only whole files behind.
// FUZZ_SEED / FUZZ_RUNS / FUZZ_PATH replay or lengthen it (fuzzSettings of durable-io/testing).

const RUNS = 30;
const NOW = 1_700_000_000_000;
const POOL = ['a.txt', 'b.md', '.env', 'Makefile', 'd/a.txt', 'd/e/f.tar.gz', 'd/.hidden'];

const write = (root: string, path: string, content: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
};
const listing = (root: string): Map<string, string> => {
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path.slice(root.length + 1), readFileSync(path, 'utf8'));
  }
  return files;
};

const scenario = fc.record({
  sources: fc.subarray(POOL, { minLength: 1 }),
  // Existing output files: a pool path itself (counter 0) or one of its renamed names.
  existing: fc.uniqueArray(
    fc.record({ path: fc.constantFrom(...POOL), counter: fc.integer({ min: 0, max: 3 }) }),
    { selector: (entry) => `${entry.path}#${entry.counter}`, maxLength: 12 },
  ),
  overwrite: fc.boolean(),
  // Fail the nth copyFile (none when undefined).
  failAt: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
});

describe('copyOutputs (property)', () => {
  it(
    'never changes what it did not write, renames to the first free name, leaves whole files only',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ sources, existing, overwrite, failAt }) => {
          await using dir = await makeTempDir('outputs-fuzz-');
          const agentRoot = join(dir.path, 'agentRoot');
          const out = join(dir.path, 'out');
          mkdirSync(agentRoot);
          mkdirSync(out);
          for (const path of sources) write(agentRoot, path, `new:${path}`);
          for (const { path, counter } of existing) {
            const name = counter === 0 ? path : renamedPath(path, counter, NOW);
            write(out, name, `old:${name}`);
          }
          const before = listing(out);
          const fs =
            failAt === undefined
              ? undefined
              : createFaultyFs({ failAt: 'copyFile', after: failAt, code: 'EIO' });
          const outcome = await copyOutputs({
            agentRoot,
            outputDirectory: out,
            globs: ['**'],
            resolver: new UnifiedFileResolver(),
            overwrite,
            now: () => NOW,
            ...(fs ? { fs } : {}),
          }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
          const after = listing(out);
          expect([...after.keys()].filter((name) => name.endsWith('.hw-tmp'))).toEqual([]);
          if (outcome instanceof OutputCopyFailure) {
            expect(failAt).toBeDefined();
            expect(sources).toContain(outcome.file);
            for (const [name, content] of after) {
              // Every file is an untouched old one or a whole copy of a source.
              if (!overwrite || !sources.includes(name))
                if (before.has(name)) expect(content).toBe(before.get(name));
              expect(content).toMatch(/^(old|new):/);
              if (content.startsWith('new:')) expect(sources).toContain(content.slice(4));
            }
            return;
          }
          if (outcome instanceof Error) throw outcome;
          expect(outcome.copied.map((entry) => entry.source).sort()).toEqual([...sources].sort());
          const taken = new Set(before.keys());
          for (const { source, destination } of outcome.copied) {
            expect(after.get(destination)).toBe(`new:${source}`);
            if (overwrite) {
              expect(destination).toBe(source);
              continue;
            }
            let counter = 0;
            while (taken.has(counter === 0 ? source : renamedPath(source, counter, NOW))) counter++;
            expect(destination).toBe(counter === 0 ? source : renamedPath(source, counter, NOW));
            taken.add(destination);
          }
          expect(outcome.renamed).toEqual(
            outcome.copied
              .filter((entry) => entry.destination !== entry.source)
              .map((entry) => ({ original: entry.source, resolved: entry.destination })),
          );
          for (const [name, content] of before) {
            if (overwrite && sources.includes(name)) continue;
            expect(after.get(name)).toBe(content);
          }
          expect(after.size).toBe(
            overwrite ? new Set([...before.keys(), ...sources]).size : before.size + sources.length,
          );
        }),
        fuzzSettings(RUNS),
      );
    },
    fuzzTimeout(RUNS, 50),
  );
});
