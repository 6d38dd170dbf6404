import { describe, expect, it } from 'vitest';
import { codon as baseCodon, block, issues, loopOf } from '../../test/builders.js';
import { validateHank } from './validate-hank.js';

/** Every codon here aborts on failure, unless a test says otherwise. */
const codon = (id: string, extra: Record<string, unknown> = {}) =>
  baseCodon(id, { onFailure: 'abort', ...extra });
const validate = (hank: unknown[]) =>
  validateHank({ meta: { name: 'parallel', version: '1.0.0' }, hank });
const errors = (result: ReturnType<typeof validate>) =>
  result.errors.map((issue) => `${issue.path} ${issue.code}`);

describe('validateHank: parallel blocks', () => {
  it('accepts a block of branches of codons and loops, with every option', () => {
    const result = validate([
      codon('plan'),
      block(
        'build',
        {
          api: [
            codon('api-code'),
            codon('api-test', { when: { codon: 'api-code', status: 'completed' } }),
          ],
          ui: [loopOf('ui-loop', [codon('ui-code'), codon('ui-review')])],
        },
        {
          maxConcurrency: 2,
          when: { codon: 'plan', status: 'completed' },
          budget: { maxDollars: 5, allocation: 'proportional', shares: { api: 0.5 } },
          merge: { onConflict: { resolver: codon('resolve') } },
        },
      ),
      codon('ship', {
        when: {
          all: [
            { codon: 'api-test', status: 'completed' },
            { codon: 'resolve', status: 'not-run' },
          ],
        },
      }),
    ]);
    expect(result.errors).toEqual([]);
    const parsed = result.config?.hank[1];
    expect(parsed?.type).toBe('parallel');
  });

  it('defaults merge.onConflict to fail', () => {
    const result = validate([block('b', { x: [codon('x1')], y: [codon('y1')] })]);
    expect(result.config?.hank[0]).toMatchObject({ merge: { onConflict: 'fail' } });
  });

  it('refuses fewer than two branches, an empty branch and a bad maxConcurrency', () => {
    expect(errors(validate([block('b', { x: [codon('x1')] })]))).toEqual([
      'hank[0].branches invalid_value',
    ]);
    expect(errors(validate([block('b', { x: [], y: [codon('y1')] })]))).toEqual([
      'hank[0].branches[0].items invalid_value',
    ]);
    expect(
      errors(validate([block('b', { x: [codon('x1')], y: [codon('y1')] }, { maxConcurrency: 0 })])),
    ).toEqual(['hank[0].maxConcurrency invalid_value']);
  });

  it('reports an error inside a branch codon at its own path', () => {
    const result = validate([
      block('b', { x: [codon('x1', { continuationMode: 'sometimes' })], y: [codon('y1')] }),
    ]);
    expect(errors(result)).toEqual(['hank[0].branches[0].items[0].continuationMode invalid_value']);
  });

  it('refuses a block inside a branch with its own message', () => {
    const inner = block('inner', { p: [codon('p1')], q: [codon('q1')] });
    const result = validate([block('b', { x: [inner], y: [codon('y1')] })]);
    expect(errors(result)).toEqual(['hank[0].branches[0].items[0].type nested_parallel']);
    expect(result.errors[0]?.message).toMatch(/do not nest/);
  });

  it('keeps ids unique across the hank: blocks, branches, and codons and loops in branches', () => {
    const result = validate([
      codon('plan'),
      block('plan', {
        x: [codon('x1'), loopOf('x1', [codon('x2')])],
        x2: [codon('plan')],
      }),
    ]);
    expect(errors(result)).toEqual([
      // Blocks, branches and loops claim their ids first, then codons in hank order.
      'hank[0].id duplicate_id',
      'hank[1].branches[0].items[0].id duplicate_id',
      'hank[1].branches[0].items[1].codons[0].id duplicate_id',
      'hank[1].branches[1].items[0].id duplicate_id',
    ]);
  });

  it("reserves a block's resolver execution id (<block>.resolve)", () => {
    const result = validate([
      codon('b.resolve'),
      block('b', { x: [codon('x1')], y: [codon('y1')] }),
    ]);
    expect(errors(result)).toEqual(['hank[0].id duplicate_id']);
  });

  it('refuses continue-previous across the boundary of a block, both ways', () => {
    const result = validate([
      codon('plan'),
      block('b', {
        x: [
          codon('x1', { continuationMode: 'continue-previous' }),
          codon('x2', { continuationMode: 'continue-previous' }),
        ],
        y: [codon('y1', { continuationMode: 'continue-previous' })],
      }),
      codon('after', { continuationMode: 'continue-previous' }),
    ]);
    expect(errors(result)).toEqual([
      'hank[1].branches[0].items[0].continuationMode continues_across_block',
      'hank[1].branches[1].items[0].continuationMode continues_across_block',
      'hank[2].continuationMode continues_across_block',
    ]);
  });

  it('applies the usual continue-previous rules within a branch', () => {
    const result = validate([
      block('b', {
        x: [codon('x1', { model: 'opus' }), codon('x2', { continuationMode: 'continue-previous' })],
        y: [codon('y1')],
      }),
    ]);
    expect(errors(result)).toEqual([
      'hank[0].branches[0].items[1].model continuation_model_mismatch',
    ]);
  });

  it("refuses a condition naming a sibling branch's codon, saying they run concurrently", () => {
    const result = validate([
      codon('plan'),
      block('b', {
        x: [codon('x1'), codon('x2', { when: { codon: 'x1', status: 'completed' } })],
        y: [
          codon('y1', {
            when: {
              all: [
                { codon: 'plan', status: 'completed' },
                { codon: 'x1', status: 'completed' },
              ],
            },
          }),
        ],
      }),
    ]);
    expect(errors(result)).toEqual(['hank[1].branches[1].items[0].when condition_order']);
    expect(result.errors[0]?.message).toMatch(/sibling branch "x".*concurrently/);
  });

  it('refuses a condition naming a later codon of its own branch', () => {
    const result = validate([
      block('b', {
        x: [codon('x1', { when: { codon: 'x2', status: 'completed' } }), codon('x2')],
        y: [codon('y1')],
      }),
    ]);
    expect(errors(result)).toEqual(['hank[0].branches[0].items[0].when condition_order']);
  });

  it("lets a codon of a loop in a branch name its loop's codons", () => {
    const result = validate([
      block('b', {
        x: [
          loopOf('l', [codon('l1', { when: { codon: 'l2', status: 'completed' } }), codon('l2')]),
        ],
        y: [codon('y1')],
      }),
    ]);
    expect(errors(result)).toEqual([]);
  });

  it("refuses a block's own condition naming a codon inside it", () => {
    const result = validate([
      block(
        'b',
        { x: [codon('x1')], y: [codon('y1')] },
        { when: { codon: 'x1', status: 'completed' } },
      ),
    ]);
    expect(errors(result)).toEqual(['hank[0].when condition_order']);
  });

  it('requires a fresh resolver without a condition', () => {
    const result = validate([
      codon('plan'),
      block(
        'b',
        { x: [codon('x1')], y: [codon('y1')] },
        {
          merge: {
            onConflict: {
              resolver: codon('fix', {
                continuationMode: 'continue-previous',
                when: { codon: 'plan', status: 'completed' },
              }),
            },
          },
        },
      ),
    ]);
    expect(errors(result)).toEqual([
      'hank[1].merge.onConflict.resolver.continuationMode invalid_resolver',
      'hank[1].merge.onConflict.resolver.when invalid_resolver',
    ]);
  });

  it("checks a block budget's shares against its branches", () => {
    const result = validate([
      block(
        'b',
        { x: [codon('x1')], y: [codon('y1')] },
        { budget: { maxDollars: 2, allocation: 'proportional', shares: { x1: 0.5 } } },
      ),
    ]);
    expect(errors(result)).toEqual(['hank[0].budget.shares.x1 invalid_budget']);
  });

  it('checks loops inside branches as top-level loops are', () => {
    const result = validate([
      block('b', {
        x: [
          loopOf('l', [{ ...codon('l1'), onFailure: undefined }], {
            terminateOn: { type: 'contextExceeded' },
          }),
        ],
        y: [codon('y1')],
      }),
    ]);
    expect(issues(result)).toEqual(
      expect.arrayContaining([
        'hank[0].branches[0].items[0].codons[0].continuationMode fresh_in_context_loop',
        'hank[0].branches[0].items[0].codons[0].onFailure loop_codon_aborts',
      ]),
    );
  });
});
