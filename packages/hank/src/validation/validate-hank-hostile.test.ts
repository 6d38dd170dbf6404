import { fileNodeSchema } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { HANK_ISSUE_CODES, type HankValidation, validateHank } from '../index.js';

// Inputs a hostile or careless user can write, each of which crashed or hung validateHank before.

const codon = (extra: Record<string, unknown> = {}) => ({
  id: 'a',
  name: 'A',
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Do it',
  ...extra,
});
const hank = (items: unknown[] = [codon()], extra: Record<string, unknown> = {}) => ({
  meta: { name: 'demo', version: '1.0.0' },
  hank: items,
  ...extra,
});
const inlineSentinel = (extra: Record<string, unknown> = {}) => ({
  id: 'watch',
  name: 'Watch',
  model: 'anthropic/claude-haiku-4-5',
  trigger: { type: 'event', on: ['assistant.action'] },
  execution: { strategy: 'immediate' },
  userPromptText: 'x',
  ...extra,
});
/** Adds an own key the way JSON.parse does, even for `__proto__`. */
const withKey = <T extends object>(value: T, key: string, keyValue: unknown = 'x'): T =>
  Object.defineProperty({ ...value }, key, {
    value: keyValue,
    enumerable: true,
    writable: true,
    configurable: true,
  });
const wellFormed = (result: HankValidation) => {
  expect(result.valid).toBe(result.errors.length === 0);
  for (const issue of [...result.errors, ...result.warnings]) {
    expect(typeof issue.path).toBe('string');
    expect(HANK_ISSUE_CODES).toContain(issue.code);
    expect(issue.message.length).toBeGreaterThan(0);
  }
};

const PROTOTYPE_KEYS = ['valueOf', '__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('validateHank() on keys named like Object.prototype members', () => {
  const places: [string, (key: string) => unknown, string][] = [
    ['the root', (key) => withKey(hank(), key), ''],
    ['meta', (key) => hank([codon()], { meta: withKey({ name: 'd', version: '1' }, key) }), 'meta'],
    ['a codon', (key) => hank([withKey(codon(), key)]), 'hank[0]'],
    [
      'a loop',
      (key) =>
        hank([
          withKey(
            {
              type: 'loop',
              id: 'l',
              name: 'L',
              terminateOn: { type: 'iterationLimit', limit: 2 },
              codons: [codon({ onFailure: 'ignore' })],
            },
            key,
          ),
        ]),
      'hank[0]',
    ],
    [
      'a rig item',
      (key) =>
        hank([codon({ rigSetup: [withKey({ type: 'command', command: { run: 'ls' } }, key)] })]),
      'hank[0].rigSetup[0]',
    ],
    [
      'a sentinel entry',
      (key) => hank([codon({ sentinels: [withKey({ sentinelConfig: inlineSentinel() }, key)] })]),
      'hank[0].sentinels[0]',
    ],
    [
      'an inline sentinel config',
      (key) => hank([codon({ sentinels: [{ sentinelConfig: withKey(inlineSentinel(), key) }] })]),
      'hank[0].sentinels[0].sentinelConfig',
    ],
  ];
  for (const [where, build, path] of places) {
    it.each(PROTOTYPE_KEYS)(`reports "%s" in ${where} as an unknown field`, (key) => {
      const result = validateHank(build(key));
      wellFormed(result);
      expect(result.valid).toBe(false);
      const expected = path === '' ? key : `${path}.${key}`;
      expect(result.errors).toContainEqual(
        expect.objectContaining({ path: expected, code: 'unknown_field' }),
      );
      // Not close to any real field: no hint, the list of known fields instead.
      const issue = result.errors.find((entry) => entry.path === expected);
      expect(issue?.message).not.toContain('Did you mean');
    });
  }

  it('still hints a real field when the typo is close to one', () => {
    const result = validateHank(hank([withKey(codon(), 'modle', 'sonnet')]));
    expect(result.errors[0]?.message).toContain('Did you mean "model"?');
  });
});

describe('validateHank() on deep and large inputs', () => {
  const nest = (depth: number, key = 'type'): unknown => {
    let value: unknown = 'x';
    for (let level = 0; level < depth; level++) value = { [key]: value };
    return value;
  };

  it('reports a type nested 10,000 levels deep as too_deep instead of overflowing', () => {
    const result = validateHank(hank([codon({ type: nest(10_000) })]));
    wellFormed(result);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'too_deep',
        path: expect.stringMatching(/^hank\[0\]\.type/),
      }),
    ]);
    expect(result.errors[0]?.message).toContain('100');
  });

  it('accepts the nesting a real JSON Schema in a sentinel needs', () => {
    const schema = nest(30, 'items') as Record<string, unknown>;
    const sentinel = inlineSentinel({ structuredOutput: { output: 'object', schema } });
    const result = validateHank(hank([codon({ sentinels: [{ sentinelConfig: sentinel }] })]));
    expect(result.errors).toEqual([]);
  });

  it('reports more values than the limit as too_large', () => {
    const result = validateHank(
      hank([codon({ env: { A: '1' }, extra: new Array(200_000).fill(1) })]),
    );
    expect(result.errors).toEqual([expect.objectContaining({ code: 'too_large' })]);
    expect(result.errors[0]?.message).toContain('100,000');
  });

  it('reports more text than the limit as too_large', () => {
    const result = validateHank(hank([codon({ promptText: 'x'.repeat(10_000_001) })]));
    expect(result.errors).toEqual([expect.objectContaining({ code: 'too_large' })]);
  });

  it('reports a sparse array of huge length without walking it', () => {
    const started = Date.now();
    const result = validateHank(hank(new Array(1e9)));
    expect(result.errors[0]?.code).toBe('too_large');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports a cycle built in code as too_deep', () => {
    const item: Record<string, unknown> = codon();
    item.self = item;
    expect(validateHank(hank([item])).errors[0]?.code).toBe('too_deep');
  });

  it('reports a getter that throws instead of throwing', () => {
    const item = codon();
    Object.defineProperty(item, 'model', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const result = validateHank(hank([item]));
    expect(result.errors).toEqual([
      expect.objectContaining({ path: 'hank[0].model', code: 'invalid_value' }),
    ]);
    expect(result.errors[0]?.message).toContain('boom');
  });

  it('answers for values that are not JSON at all', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const values = [undefined, () => 1, Symbol('s'), 10n, revoked.proxy, new Map(), new Date()];
    for (const value of values) {
      const result = validateHank(value);
      wellFormed(result);
      expect(result.valid).toBe(false);
    }
  });

  it('counts a typed array and reads boxed primitives as their value', () => {
    const started = Date.now();
    const typed = validateHank(hank([codon({ promptText: new Uint8Array(50_000_000) })]));
    expect(typed.errors).toEqual([expect.objectContaining({ code: 'too_large' })]);
    expect(Date.now() - started).toBeLessThan(2000);
    const boxed = validateHank(hank([codon({ promptText: new String('Do it') })]));
    expect(boxed.errors).toEqual([]);
  });

  it('never mutates its input', () => {
    const input = hank([codon({ rigSetup: [{ type: 'command', command: { run: 'ls' } }] })]);
    const before = JSON.stringify(input);
    validateHank(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('checks a destructive-looking command in linear time (the old pattern backtracked)', () => {
    const run = `rm -${'r'.repeat(100_000)}`;
    const started = Date.now();
    const result = validateHank(
      hank([codon({ rigSetup: [{ type: 'command', command: { run } }] })]),
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result.warnings.map((issue) => issue.code)).not.toContain('dangerous_command');
    const flagged = validateHank(
      hank([codon({ rigSetup: [{ type: 'command', command: { run: 'rm -fr / ' } }] })]),
    );
    expect(flagged.warnings.map((issue) => issue.code)).toContain('dangerous_command');
  });

  it('keeps messages short when the input holds long names', () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `codon-${index}`);
    const shares = Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [`missing-${index}`, 0.0001]),
    );
    const result = validateHank(
      hank(
        ids.map((id) => codon({ id })),
        { overrides: { budget: { maxDollars: 1, allocation: 'proportional', shares } } },
      ),
    );
    expect(result.errors).toHaveLength(2000);
    for (const issue of result.errors) expect(issue.message.length).toBeLessThan(1000);
    const long = validateHank(hank([withKey(codon(), `k${'y'.repeat(100_000)}`)]));
    expect(long.errors[0]?.message.length).toBeLessThan(1000);
  });
});

describe('validateHank() on many unknown keys', () => {
  it('names 50 of them and counts the rest, quickly', () => {
    const item: Record<string, unknown> = codon();
    for (let index = 0; index < 90_000; index++) item[`${'k'.repeat(60)}${index}`] = 1;
    const started = Date.now();
    const result = validateHank(hank([item]));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.errors).toHaveLength(51);
    expect(result.errors[50]).toMatchObject({ path: 'hank[0]', code: 'unknown_field' });
    expect(result.errors[50]?.message).toMatch(/^89950 more unknown fields in hank\[0\]/);
  });
});

describe('fileNodeSchema on a deep tree', () => {
  const node = (children: unknown[]) => ({
    name: 'a',
    path: 'a',
    isDirectory: true,
    children,
    lastModified: '2025-01-01T00:00:00.000Z',
  });
  const chain = (depth: number) => {
    let tree = node([]);
    for (let level = 0; level < depth; level++) tree = node([tree]);
    return tree;
  };

  it('reports a tree nested deeper than 256 levels instead of overflowing the stack', () => {
    const result = fileNodeSchema.safeParse(chain(50_000));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('256');
  });

  it('still reads a tree 256 levels deep', () => {
    expect(fileNodeSchema.safeParse(chain(255)).success).toBe(true);
  });
});
