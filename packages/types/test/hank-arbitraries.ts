import fc from 'fast-check';
import {
  codonConfigSchema,
  hankConfigSchema,
  loopConfigSchema,
  sentinelConfigSchema,
} from '../src/index.js';
import { PROTOTYPE_KEYS } from './fuzz.js';

// Generators of hank.json inputs for the property tests of the schemas: valid hanks (built valid
// by construction, no records, so every object is strict), and structure-aware junk.
// @hankweave/hank's test/hank-arbitraries.ts has the same generators for validateHank's property
// tests (plus `hankishRoot`); a package's test helpers stay its own, so a change to validation's
// generators never rebuilds the packages that depend on types. Keep the two in step.

const text = fc.string({ maxLength: 30 });
const name = fc.string({ minLength: 1, maxLength: 20 });
const glob = fc.constantFrom('**/*.md', '!node_modules/**', 'src/**', 'docs/', 'a/../b/*.txt');
const copyTarget = fc.constantFrom('templates', 'a/b.txt', './x', 'deep/er/path', '..foo');

const rigOperation = fc.oneof(
  fc.record({
    type: fc.constant('command'),
    command: fc.record(
      {
        run: fc.constantFrom('ls', 'echo hi', 'make build', 'rm -rf /'),
        workingDirectory: fc.constantFrom('project', 'lastCopied'),
      },
      { requiredKeys: ['run'] },
    ),
    allowFailure: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('copy'),
    copy: fc.record({ from: fc.constantFrom('templates', 'a.txt', 'x/../y'), to: copyTarget }),
    allowFailure: fc.boolean(),
  }),
);

const sentinel = fc.record(
  {
    id: fc.constant('watch'),
    name,
    model: fc.constant('anthropic/claude-haiku-4-5'),
    trigger: fc.oneof(
      fc.record({ type: fc.constant('event'), on: fc.constant(['assistant.action']) }),
      fc.record({
        type: fc.constant('sequence'),
        interestFilter: fc.constant({ on: ['tool.result'] }),
        pattern: fc.constant([{ type: 'tool.result' }]),
      }),
    ),
    execution: fc.oneof(
      fc.constant({ strategy: 'immediate' }),
      fc.record({ strategy: fc.constant('count'), threshold: fc.integer({ min: 1, max: 1000 }) }),
    ),
    userPromptText: text,
    output: fc.record({
      format: fc.constantFrom('text', 'jsonl'),
      file: fc.constantFrom('log.md', 'reports/log.md', '../rigArchive/log.md'),
    }),
  },
  { requiredKeys: ['id', 'name', 'model', 'trigger', 'execution', 'userPromptText'] },
);

const sentinelEntry = fc.record(
  {
    sentinelConfig: sentinel,
    settings: fc.record(
      {
        failCodonIfNotLoaded: fc.boolean(),
        outputPaths: fc.record(
          { logFile: fc.constantFrom('a.md', 'out/a.md'), lastValueFile: fc.constant('v.json') },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['sentinelConfig'] },
);

/** A codon without its id (ids are given by position, so they are unique). */
const codonBody = (inLoop: boolean) =>
  fc.record(
    {
      name,
      description: text,
      model: fc.constant('sonnet'),
      continuationMode: fc.constantFrom('fresh', 'continue-previous'),
      promptText: text,
      appendSystemPromptText: text,
      rigSetup: fc.array(rigOperation, { maxLength: 3 }),
      checkpointedFiles: fc.array(glob, { maxLength: 3 }),
      trackedFiles: fc.array(glob, { maxLength: 2 }),
      outputFiles: fc.array(fc.record({ copy: fc.array(glob, { minLength: 1, maxLength: 2 }) }), {
        maxLength: 2,
      }),
      archiveOnSuccess: fc.array(fc.constantFrom('out/**', 'tmp/*.log'), { maxLength: 2 }),
      sentinels: fc.array(sentinelEntry, { maxLength: 1 }),
      onFailure: fc.constantFrom('abort', 'retry', 'ignore'),
      maxExtensions: fc.integer({ min: 1, max: 200 }),
      autoCompact: fc.boolean(),
      shimIdleTimeout: fc.integer({ min: 1, max: 1800 }),
      budget: fc.record(
        {
          maxDollars: fc.double({ min: 0.01, max: 100, noNaN: true }),
          maxOutputTokens: fc.integer({ min: 1, max: 100_000 }),
          onExceeded: fc.constantFrom('complete', 'fail'),
        },
        { requiredKeys: [] },
      ),
    },
    {
      requiredKeys: inLoop
        ? ['name', 'model', 'continuationMode', 'promptText', 'onFailure']
        : ['name', 'model', 'continuationMode', 'promptText'],
    },
  );

const loopBody = fc.record(
  {
    type: fc.constant('loop'),
    name,
    terminateOn: fc.oneof(
      fc.record({ type: fc.constant('iterationLimit'), limit: fc.integer({ min: 1, max: 5 }) }),
      fc.record({ type: fc.constant('plateau'), maxIterations: fc.integer({ min: 2, max: 6 }) }),
    ),
    codons: fc.array(codonBody(true), { minLength: 1, maxLength: 3 }),
    archiveOnSuccess: fc.array(fc.constantFrom('out/**', 'loop/*.txt'), { maxLength: 2 }),
  },
  { requiredKeys: ['type', 'name', 'terminateOn', 'codons'] },
);

/** A hank that validates, built valid: unique ids, one model, no records, safe paths. */
export const validHank = fc
  .record(
    {
      meta: fc.record(
        { name, version: name, description: text, author: text },
        { requiredKeys: ['name', 'version'] },
      ),
      globalSystemPromptText: text,
      overrides: fc.record({ model: fc.constant('sonnet') }),
      hank: fc.array(fc.oneof(codonBody(false), loopBody), { minLength: 1, maxLength: 4 }),
    },
    { requiredKeys: ['meta', 'hank'] },
  )
  .map((hank) => {
    let next = 0;
    const withId = <T extends object>(item: T) => ({ id: `c${next++}`, ...item });
    return {
      ...hank,
      hank: hank.hank.map((item) =>
        'codons' in item ? { ...withId(item), codons: item.codons.map(withId) } : withId(item),
      ),
    };
  });

/** Every field name the schemas know, and the values that select a branch. */
const FIELD_NAMES = [
  ...Object.keys(hankConfigSchema.shape),
  ...Object.keys(codonConfigSchema.shape),
  ...Object.keys(loopConfigSchema.shape),
  ...Object.keys((sentinelConfigSchema as unknown as { shape: object }).shape ?? {}),
  'copy',
  'command',
  'from',
  'to',
  'run',
  'sentinelConfig',
  'settings',
  'outputPaths',
  'logFile',
  'file',
  'limit',
];
const BRANCH_VALUES = [
  'codon',
  'loop',
  'copy',
  'command',
  'fresh',
  'continue-previous',
  'iterationLimit',
  'plateau',
  'contextExceeded',
  'sonnet',
  '../../etc/passwd',
  '/abs',
  '.',
  '',
];

/** Junk shaped like a hank: real field names, prototype names and random keys, any values. */
export const hankishValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...BRANCH_VALUES),
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.constantFrom(...PROTOTYPE_KEYS), fc.string()),
        tie('value'),
      ),
      { maxLength: 6 },
    )
    .map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) {
        Object.defineProperty(object, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return object;
    }),
})).value;
