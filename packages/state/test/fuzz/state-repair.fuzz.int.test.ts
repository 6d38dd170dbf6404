import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  fuzzSettings,
  fuzzTimeout,
  makeTempDir,
  type TempDir,
} from '@hankweave/durable-io/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateStore, statePaths, validateState } from '../../src/index.js';
import { loadState } from '../../src/persistence/load-state.js';
import { applyDamages, buildState, damageArb, stateSpecArb } from './state-damage.js';

// Valid states with random structural damage (state-damage.ts): loading repairs them from
// state.json itself, keeps every run and record, changes nothing but what it reports, and a
// store saves the repair and keeps the original aside. An undamaged state is left byte for byte.

/** Leaf paths (`runs[0].codons[1].finalCost`) where `a` and `b` differ. */
const differences = (a: unknown, b: unknown, path = ''): string[] => {
  if (Object.is(a, b)) return [];
  const objects = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null;
  if (!objects || Array.isArray(a) !== Array.isArray(b)) return [path];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((key) =>
    differences(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      Array.isArray(a) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`,
    ),
  );
};

/** True when `repair` (a path) is `diff` or above it. */
const covers = (repair: string, diff: string): boolean =>
  diff === repair || diff.startsWith(`${repair}.`) || diff.startsWith(`${repair}[`);

const quiet = { warn: () => {} };
let root: TempDir;
let cases = 0;
beforeAll(async () => {
  root = await makeTempDir('state-repair-fuzz-');
});
afterAll(async () => {
  await root.cleanup();
});
const freshDir = async (): Promise<string> => {
  const dir = join(root.path, `case-${cases++}`, '.hankweave');
  await mkdir(dir, { recursive: true });
  return dir;
};

describe('structurally damaged state.json (property)', () => {
  it('is repaired from itself: valid, every run and record kept, only reported fields changed', {
    timeout: fuzzTimeout(150, 60),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        stateSpecArb,
        fc.array(damageArb, { minLength: 1, maxLength: 3 }),
        async (spec, damages) => {
          const original = buildState(spec);
          const { doc, applied } = applyDamages(original, damages);
          expect(applied.length).toBeGreaterThan(0);
          const dir = await freshDir();
          const paths = statePaths(dir);
          const damagedText = JSON.stringify(doc, null, 2);
          await writeFile(paths.primary, damagedText);
          // A valid backup is there too: a repairable primary is still preferred (it is newer).
          await writeFile(paths.backup, JSON.stringify(original, null, 2));

          const loaded = await loadState(dir);
          expect(loaded.recovery.source).toBe('primary');
          expect(loaded.recovery.repairs.length).toBeGreaterThan(0);
          expect(loaded.recovery.repaired?.errors.length).toBeGreaterThan(0);
          expect(loaded.recovery.repairs.every((repair) => repair.file === 'state.json')).toBe(
            true,
          );
          expect(await validateState(loaded.state)).toMatchObject({ valid: true, errors: [] });

          // Every run and record that was in the file, in order; ids the same unless renamed.
          const { state } = loaded;
          expect(state.runs).toHaveLength(doc.runs.length);
          state.runs.forEach((run, r) => {
            const before = doc.runs[r];
            if (run.runId !== before.runId) {
              expect(run.runId.startsWith(`${before.runId}~`)).toBe(true);
              expect(loaded.recovery.repairs).toContainEqual(
                expect.objectContaining({
                  path: `runs[${r}].runId`,
                  kind: 'duplicate-run-renamed',
                }),
              );
            }
            expect(run.codons.map((codon) => [codon.codonId, codon.status])).toEqual(
              before.codons.map((codon: { codonId: string; status: string }) => [
                codon.codonId,
                codon.status,
              ]),
            );
          });
          // Nothing changed that is not reported.
          const repaired = loaded.recovery.repairs.map((repair) => repair.path);
          for (const diff of differences(doc, JSON.parse(JSON.stringify(state)))) {
            expect(
              repaired.some((path) => covers(path, diff)),
              `${diff} changed without a repair (${applied.join(', ')})`,
            ).toBe(true);
          }

          // A store saves the repair at once and keeps the damaged file aside.
          const store = await StateStore.open(dir, { logger: quiet });
          expect(store.state).toEqual(state);
          expect(JSON.parse(await readFile(paths.primary, 'utf8'))).toEqual(
            JSON.parse(JSON.stringify(state)),
          );
          const aside = (await readdir(dir)).filter((name) =>
            name.startsWith('state.json.corrupt-'),
          );
          expect(aside).toHaveLength(1);
          expect(await readFile(join(dir, aside[0] as string), 'utf8')).toBe(damagedText);
          await store.close();
          expect((await loadState(dir)).recovery).toMatchObject({ source: 'primary', repairs: [] });
          await rm(join(dir, '..'), { recursive: true, force: true });
        },
      ),
      fuzzSettings(60),
    );
  });

  it('leaves an undamaged state alone: no repair, same state, same bytes', {
    timeout: fuzzTimeout(100, 60),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(stateSpecArb, async (spec) => {
        const original = buildState(spec);
        const dir = await freshDir();
        const { primary } = statePaths(dir);
        const text = JSON.stringify(original, null, 2);
        await writeFile(primary, text);
        const loaded = await loadState(dir);
        expect(loaded.recovery).toMatchObject({ source: 'primary', repairs: [] });
        expect(loaded.recovery.repaired).toBeUndefined();
        expect(loaded.state).toEqual(original);
        const store = await StateStore.open(dir, { logger: quiet });
        await store.close();
        expect(store.stats().writes).toBe(0);
        expect(await readFile(primary, 'utf8')).toBe(text);
        await rm(join(dir, '..'), { recursive: true, force: true });
      }),
      fuzzSettings(40),
    );
  });
});
