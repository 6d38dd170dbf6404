import { describe, expect, it } from 'vitest';
import { codon, issues, loopOf } from '../../test/builders.js';
import { validateHank } from './validate-hank.js';

const validate = (hank: unknown[]) =>
  validateHank({ meta: { name: 'when', version: '1.0.0' }, hank });

describe('validateHank: when', () => {
  it('accepts every kind of condition, nested', () => {
    const result = validate([
      codon('test'),
      codon('fix', {
        when: {
          all: [
            { codon: 'test', status: ['failed', 'skipped'] },
            { not: { exists: 'SKIP_FIX' } },
            { any: [{ json: 'out/results.json', pointer: '/failed', notEquals: 0 }] },
            { sentinel: 'reviewer', pointer: '/verdict', equals: 'fix' },
          ],
        },
      }),
    ]);
    expect(result.errors).toEqual([]);
  });

  it('refuses a codon the hank lacks, with a hint, and one that cannot have run before', () => {
    const result = validate([
      codon('first', { when: { codon: 'later', status: 'completed' } }),
      codon('self', { when: { codon: 'self', status: 'completed' } }),
      codon('later', { when: { codon: 'tset', status: 'failed' } }),
      codon('test'),
    ]);
    expect(issues(result)).toEqual(
      expect.arrayContaining([
        'hank[0].when condition_order',
        'hank[1].when condition_order',
        'hank[2].when unknown_codon',
      ]),
    );
    expect(result.errors.find((issue) => issue.code === 'unknown_codon')?.message).toContain(
      'did you mean "test"',
    );
  });

  it('lets a loop codon name any codon of its loop (an earlier iteration ran it), not the loop itself', () => {
    const ok = validate([
      loopOf('repair', [
        codon('fix', { when: { codon: 'check', status: ['failed', 'not-run'] } }),
        codon('check'),
      ]),
    ]);
    expect(ok.errors).toEqual([]);
    const own = validate([
      loopOf('repair', [codon('fix'), codon('check')], {
        when: { codon: 'check', status: 'failed' },
      }),
    ]);
    expect(issues(own)).toContain('hank[0].when condition_order');
  });

  it('refuses paths outside agentRoot and malformed comparisons and pointers', () => {
    const result = validate([
      codon('a', { when: { exists: '/etc/passwd' } }),
      codon('b', { when: { json: '../../secrets.json', pointer: '/x', equals: 1 } }),
    ]);
    expect(issues(result)).toEqual(
      expect.arrayContaining([
        'hank[0].when escapes_agent_root',
        'hank[1].when escapes_agent_root',
      ]),
    );
    for (const when of [
      { json: 'r.json', pointer: '/x' },
      { json: 'r.json', pointer: '/x', equals: 1, notEquals: 2 },
      { json: 'r.json', pointer: 'x', equals: 1 },
      { codon: 'a', status: 'done' },
      { exists: 'a', codon: 'b' },
    ]) {
      expect(validate([codon('a'), codon('b', { when })]).valid, JSON.stringify(when)).toBe(false);
    }
  });

  it('warns when a continue-previous codon follows a conditional one', () => {
    const result = validate([
      codon('maybe', { when: { exists: 'x' } }),
      codon('then', { continuationMode: 'continue-previous' }),
    ]);
    expect(result.valid).toBe(true);
    expect(issues(result)).toContain('hank[1].continuationMode continues_conditional_codon');
  });
});
