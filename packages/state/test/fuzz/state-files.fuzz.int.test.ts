import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Fs, nodeFs } from '@hankweave/durable-io';
import {
  fuzzSettings,
  fuzzTimeout,
  makeTempDir,
  type TempDir,
} from '@hankweave/durable-io/testing';
import { emptyState, type HankweaveState, runtimeLockSchema } from '@hankweave/types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireRuntimeLock,
  readRuntimeLock,
  readState,
  STATE_ERROR_CODES,
  StateError,
  StateStore,
  statePaths,
  validateState,
} from '../../src/index.js';
import { loadState } from '../../src/persistence/load-state.js';
import { makeTransition as t } from '../../src/testing/transitions.js';
import { repairStructure } from '../../src/validation/repair-state.js';
import { twoRunState } from '../fixture-state.js';
import { applyMutation, type Mutation, mutationArb } from './json-mutations.js';

// Arbitrary bytes on disk in state.json, state.json.bak, state.json.tmp and runtime.lock: the
// readers never fail with anything but a coded StateError, recovery takes the first file that is
// good, what they load always validates, and a store opened on it saves and reopens.

const ORIGINAL = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '../fixtures/original-runtime/.hankweave/state.json'),
    'utf8',
  ),
) as HankweaveState;
/** The states damaged files are made from: empty, two runs, and one of the original runtime. */
const BASES: HankweaveState[] = [emptyState(), twoRunState(), ORIGINAL];
const baseText = (index: number): string => JSON.stringify(BASES[index % BASES.length], null, 2);

/** What to put at one path: nothing, a directory, or bytes made in one of several ways. */
type FileSpec =
  | { kind: 'absent' }
  | { kind: 'dir' }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'json'; value: unknown }
  | { kind: 'valid'; base: number }
  | { kind: 'mutated'; base: number; mutation: Mutation };

const stateFileArb: fc.Arbitrary<FileSpec> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'absent' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'dir' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('bytes' as const),
      bytes: fc.uint8Array({ maxLength: 300 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('valid' as const), base: fc.nat(BASES.length - 1) }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('mutated' as const),
      base: fc.nat(BASES.length - 1),
      mutation: mutationArb,
    }),
  },
);

const VALID_LOCK = {
  pid: 999_999_001,
  runId: 'r1',
  startTime: '2025-01-04T12:00:00.000Z',
  lastHeartbeat: '2025-01-04T12:00:00.000Z',
  lockId: 'b4d7c0de-0000-4000-8000-000000000000',
  port: 54321,
};

const lockFileArb: fc.Arbitrary<FileSpec | { kind: 'lock'; mutation?: Mutation; pid?: number }> =
  fc.oneof(
    stateFileArb,
    fc.record({ kind: fc.constant('lock' as const) }),
    fc.record({ kind: fc.constant('lock' as const), mutation: mutationArb }),
    // The bare pid of old runtimes, any integer.
    fc.record({ kind: fc.constant('lock' as const), pid: fc.integer() }),
  );

type AnySpec = FileSpec | { kind: 'lock'; mutation?: Mutation; pid?: number };

/** The bytes a spec stands for; 'dir' for a directory, undefined for nothing. */
const contentOf = (spec: AnySpec): Buffer | 'dir' | undefined => {
  switch (spec.kind) {
    case 'absent':
      return undefined;
    case 'dir':
      return 'dir';
    case 'bytes':
      return Buffer.from(spec.bytes);
    case 'json':
      return Buffer.from(JSON.stringify(spec.value));
    case 'valid':
      return Buffer.from(baseText(spec.base));
    case 'mutated':
      return applyMutation(baseText(spec.base), BASES[spec.base], spec.mutation);
    case 'lock': {
      if (spec.pid !== undefined) return Buffer.from(String(spec.pid));
      const text = JSON.stringify(VALID_LOCK, null, 2);
      return spec.mutation ? applyMutation(text, VALID_LOCK, spec.mutation) : Buffer.from(text);
    }
  }
};

const place = async (path: string, content: Buffer | 'dir' | undefined): Promise<void> => {
  await rm(path, { recursive: true, force: true });
  if (content === 'dir') await mkdir(path);
  else if (content !== undefined) await writeFile(path, content);
};

/**
 * The test's own verdict on a state file: its parsed value when it parses and validates, else the
 * repaired state when it parses and can be repaired (README "Recovery"), else nothing.
 */
const goodState = async (
  content: Buffer | 'dir' | undefined,
): Promise<{ state: unknown; repaired: boolean } | undefined> => {
  if (content === undefined || content === 'dir') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(content.toString('utf8'));
  } catch {
    return undefined;
  }
  // validateState and repairStructure read disk input too: they must answer, never throw.
  if ((await validateState(data)).valid) return { state: data, repaired: false };
  const { state, repairs } = repairStructure(data);
  if (state === undefined) return undefined;
  expect(repairs.length).toBeGreaterThan(0);
  expect((await validateState(state)).valid).toBe(true);
  return { state, repaired: true };
};

/**
 * A copy without own keys named `__proto__`: the schema drops them from the objects it knows (no
 * hankweave writes one, and dropping it is what keeps prototypes out of reach), so the test
 * compares states without them.
 */
const withoutProtoKeys = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, inner) => (key === '__proto__' ? undefined : inner));

/** True when every object in `value` has a plain prototype: nothing on disk can change one. */
const plainPrototypes = (value: unknown): boolean => {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    const proto = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
    stack.push(...Object.values(item));
  }
  return true;
};

const expectCoded = (error: unknown): void => {
  expect(
    StateError.is(error),
    `not a StateError: ${error instanceof Error ? error.stack : String(error)}`,
  ).toBe(true);
  expect(STATE_ERROR_CODES).toContain((error as StateError).code);
};

const settle = <T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

const quiet = { warn: () => {} };
const DEAD = () => false;

let root: TempDir;
let runs = 0;
beforeAll(async () => {
  root = await makeTempDir('state-fuzz-');
});
afterAll(async () => {
  await root.cleanup();
});

/** A fresh `.hankweave` directory per case, all inside one temp dir; the last one is removed. */
let previous: string | undefined;
const freshDir = async (): Promise<string> => {
  if (previous !== undefined) await rm(previous, { recursive: true, force: true });
  previous = join(root.path, `case-${runs++}`);
  const dir = join(previous, '.hankweave');
  await mkdir(dir, { recursive: true });
  return dir;
};

describe('state files of arbitrary bytes (fuzz)', () => {
  it('loads the first good file or a fresh state, validated, and a store saves over anything', {
    timeout: fuzzTimeout(120, 40),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        stateFileArb,
        stateFileArb,
        fc.option(fc.uint8Array({ maxLength: 64 })),
        async (primarySpec, backupSpec, temp) => {
          const dir = await freshDir();
          const paths = statePaths(dir);
          const primary = contentOf(primarySpec);
          const backup = contentOf(backupSpec);
          await place(paths.primary, primary);
          await place(paths.backup, backup);
          await place(paths.temp, temp === null ? undefined : Buffer.from(temp));
          const goodPrimary = await goodState(primary);
          const goodBackup = await goodState(backup);

          const read = await settle(readState(dir));
          if ('error' in read) {
            expectCoded(read.error);
            throw read.error; // the default recovery never fails on content
          }
          const { state, source, validation, recovery } = read.value;
          const used = goodPrimary ?? goodBackup;
          if (goodPrimary !== undefined) expect(source).toBe('primary');
          else if (goodBackup !== undefined) expect(source).toBe('backup');
          else expect(source).toBe('fresh');
          if (used === undefined) {
            expect(state).toEqual(emptyState());
            expect(recovery.repairs).toEqual([]);
          } else {
            expect(withoutProtoKeys(state)).toEqual(withoutProtoKeys(used.state));
            expect(recovery.repairs.length > 0).toBe(used.repaired);
          }
          expect(plainPrototypes(state)).toBe(true);
          expect(validation.valid).toBe(true);
          expect((await validateState(state)).valid).toBe(true);
          expect(recovery.leftoverTemp).toBe(temp !== null);

          const strict = await settle(loadState(dir, { onUnrecoverable: 'throw' }));
          const anyFile = primary !== undefined || backup !== undefined;
          if (goodPrimary === undefined && goodBackup === undefined && anyFile) {
            expect('error' in strict && (strict.error as StateError).code).toBe('STATE_CORRUPT');
          } else if ('error' in strict) {
            expectCoded(strict.error);
            throw strict.error;
          }

          // Whatever was there, a store opened on it takes a transition, saves and reopens.
          const store = await StateStore.open(dir, { logger: quiet, isPidAlive: DEAD });
          store.detectCrashedRuns();
          const applied = (() => {
            try {
              return store.apply(t.runStarted(`fuzz-${runs}`));
            } catch (error) {
              expectCoded(error);
              throw error; // RunStarted with a new id is valid after crash detection
            }
          })();
          const flushed = await settle(store.flush());
          if ('error' in flushed) {
            expectCoded(flushed.error);
            throw flushed.error; // the directory is writable: a save must succeed
          }
          const reopened = await readState(dir);
          expect(reopened.source).toBe('primary');
          expect(reopened.state).toEqual(JSON.parse(JSON.stringify(applied)));
        },
      ),
      fuzzSettings(120),
    );
  });

  it('falls back to state.json.bak for state.json cut at every offset', {
    timeout: 60_000,
  }, async () => {
    const dir = '/nonexistent/.hankweave';
    const paths = statePaths(dir);
    for (const base of [1, 2]) {
      const text = Buffer.from(baseText(base));
      // Both files are served from memory through the injected fs, so that each of the few
      // thousand cuts costs no disk I/O (the fuzz test above covers real files).
      let cut = text;
      const missing = () => Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }));
      const fs: Fs = {
        ...nodeFs,
        readFile: ((path: string) =>
          path === paths.primary
            ? Promise.resolve(cut.toString('utf8'))
            : path === paths.backup
              ? Promise.resolve(baseText(0))
              : missing()) as Fs['readFile'],
        stat: missing as Fs['stat'],
        readdir: missing as Fs['readdir'],
      };
      for (let at = 0; at < text.length; at++) {
        cut = text.subarray(0, at);
        const { source, state } = await readState(dir, { fs });
        expect(source, `cut at ${at}`).toBe('backup');
        expect(state).toEqual(emptyState());
      }
      cut = text;
      expect((await readState(dir, { fs })).source).toBe('primary');
    }
  });

  it('reads or takes over any runtime.lock, failing only with a coded error', {
    timeout: fuzzTimeout(150, 40),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(lockFileArb, async (spec) => {
        const dir = await freshDir();
        const path = statePaths(dir).lock;
        const content = contentOf(spec);
        await place(path, content);

        const read = await settle(readRuntimeLock(dir));
        if ('error' in read) {
          expectCoded(read.error);
          expect(content).toBe('dir'); // only a lock that cannot be read at all fails
        } else if (read.value !== undefined) {
          expect(runtimeLockSchema.safeParse(read.value).success).toBe(true);
        }

        const acquired = await settle(
          acquireRuntimeLock(dir, {
            pid: 4242,
            isPidAlive: DEAD,
            heartbeatIntervalMs: 0,
            logger: quiet,
          }),
        );
        if ('error' in acquired) {
          expectCoded(acquired.error);
          // Every holder is dead: only a lock that does not parse (fail closed) or cannot be
          // read keeps a new process out.
          expect('value' in read && read.value !== undefined).toBe(false);
          return;
        }
        const lock = acquired.value;
        if ('value' in read && read.value !== undefined) {
          expect(lock.previous).toMatchObject({ reason: 'dead', lock: { pid: read.value.pid } });
        }
        expect((await readRuntimeLock(dir))?.lockId).toBe(lock.lockId);
        await lock.heartbeat();
        expect(await lock.release()).toBe(true);
        expect(await readRuntimeLock(dir)).toBeUndefined();
      }),
      fuzzSettings(150),
    );
  });
});
