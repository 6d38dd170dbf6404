import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  cloneData,
  FUZZ_RUNS,
  FUZZ_SEED,
  fuzz,
  fuzzTimeout,
  nested,
  PROTOTYPE_KEYS,
  pathsOf,
  replaceAt,
  setOwn,
} from '../test/fuzz.js';
import { hankishValue, validHank } from '../test/hank-arbitraries.js';
import * as types from './index.js';

// Every schema that reads user or disk input, on hostile values: safeParse must never throw,
// never pollute a prototype, and give plain data back. zod 4 drops a `__proto__` key from records
// and loose objects (it never becomes the prototype) and reports it in strict objects; it checks
// recursive schemas recursively, which is why fileNodeSchema bounds its depth first.

const READERS: [string, z.ZodType][] = [
  ['hankConfigSchema', types.hankConfigSchema],
  ['codonConfigSchema', types.codonConfigSchema],
  ['loopConfigSchema', types.loopConfigSchema],
  ['sentinelConfigSchema', types.sentinelConfigSchema],
  ['codonSentinelEntrySchema', types.codonSentinelEntrySchema],
  ['stateSchema', types.stateSchema],
  ['stateTransitionSchema', types.stateTransitionSchema],
  ['codonExecutionSchema', types.codonExecutionSchema],
  ['eventSchema', types.eventSchema],
  ['newEventSchema', types.newEventSchema],
  ['eventEnvelopeSchema', types.eventEnvelopeSchema],
  ['fileNodeSchema', types.fileNodeSchema],
  ['runtimeLockSchema', types.runtimeLockSchema],
  ['executionMetaSchema', types.executionMetaSchema],
  ['websocketLogEntrySchema', types.websocketLogEntrySchema],
  ['agentLogLineSchema', types.agentLogLineSchema],
  ['archiveManifestSchema', types.archiveManifestSchema],
  ['sentinelHistoryFileSchema', types.sentinelHistoryFileSchema],
  ['legacySentinelHistorySchema', types.legacySentinelHistorySchema],
  ['loopSessionRegistrySchema', types.loopSessionRegistrySchema],
  ['loopStateSchema', types.loopStateSchema],
  ['pipelineStateSchema', types.pipelineStateSchema],
  ['clientCommandSchema', types.clientCommandSchema],
  ['handshakeSchema', types.handshakeSchema],
];

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort().join();
const BASELINE = prototypeNames();

/** Every object in the parsed data has a plain prototype (none was set from the input). */
function expectPlainData(data: unknown): void {
  for (const { value } of pathsOf(data)) {
    if (typeof value !== 'object' || value === null) continue;
    const proto = Object.getPrototypeOf(value);
    expect([Object.prototype, Array.prototype, null]).toContain(proto);
  }
}

function parseEach(input: unknown): void {
  for (const [, schema] of READERS) {
    const result = schema.safeParse(input);
    if (result.success) expectPlainData(result.data);
    else expect(result.error.issues.length).toBeGreaterThan(0);
  }
  expect(prototypeNames()).toBe(BASELINE);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/** Samples of every persisted shape, to mutate (one valid instance each). */
const now = '2025-01-01T00:00:00.000Z';
const SAMPLES: unknown[] = [
  {
    runs: [],
    currentRunId: null,
    executionPlan: [{ codon: { id: 'a', name: 'A' }, codonId: 'a' }],
  },
  { id: 'e1', type: 'codon.started', timestamp: now, data: { codonId: 'a' } },
  { id: 'e2', type: 'filetree.updated', timestamp: now, data: { tree: [] } },
  { pid: 1, runId: null, startTime: now, lastHeartbeat: now },
  { loggedAt: now, direction: 'in', message: { type: 'ping' }, metadata: { size: 3 } },
  { type: 'assistant', message: { content: [{ type: 'text', text: 'hi' }] } },
  { version: '1', entries: [] },
  { turns: [{ role: 'user', content: 'x' }], metadata: { trimStrategy: 'maxTurns', maxTurns: 3 } },
  { id: 'c1', type: 'codon.next' },
  { type: 'handshake', data: { mode: 'readonly' } },
];

describe(`persisted and wire schemas (FUZZ_RUNS=${FUZZ_RUNS}, FUZZ_SEED=${FUZZ_SEED})`, () => {
  it('never throw on any JSON value', { timeout: fuzzTimeout(30) }, () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), hankishValue), parseEach), fuzz());
  });

  it('never throw on samples and hanks mutated with prototype keys, deep values and junk', {
    timeout: fuzzTimeout(30),
  }, () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...SAMPLES), validHank),
        fc.nat(),
        fc.oneof(
          fc.record({ kind: fc.constant('key'), key: fc.constantFrom(...PROTOTYPE_KEYS) }),
          fc.record({ kind: fc.constant('deep'), depth: fc.integer({ min: 1, max: 5000 }) }),
          fc.record({ kind: fc.constant('junk'), value: fc.jsonValue({ maxDepth: 3 }) }),
        ),
        (sample, pick, mutation) => {
          const input = cloneData(sample);
          const paths = pathsOf(input);
          const target = paths[pick % paths.length] as (typeof paths)[number];
          if (mutation.kind === 'key') {
            if (typeof target.value === 'object' && target.value !== null) {
              setOwn(target.value, mutation.key, { polluted: true });
            }
          } else if (target.path.length > 0) {
            replaceAt(
              input,
              target.path,
              mutation.kind === 'deep' ? nested(mutation.depth) : mutation.value,
            );
          }
          parseEach(input);
        },
      ),
      fuzz(),
    );
  });

  it('bound the depth of file trees, in events too', { timeout: fuzzTimeout() }, () => {
    const node = (children: unknown[]) => ({
      name: 'n',
      path: 'n',
      isDirectory: children.length > 0,
      children,
      lastModified: now,
    });
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 300, max: 20_000 })),
        (depth) => {
          let tree = node([]);
          for (let level = 1; level < depth; level++) tree = node([tree]);
          const event = {
            id: 'e',
            type: 'filetree.updated',
            timestamp: now,
            data: { tree: [tree] },
          };
          expect(types.fileNodeSchema.safeParse(tree).success).toBe(depth <= 256);
          expect(types.eventSchema.safeParse(event).success).toBe(depth <= 256);
        },
      ),
      fuzz(0.2),
    );
  });
});
