import type { Condition } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { type ConditionFacts, evaluateCondition } from './evaluate-condition.js';
import { lookUpPointer } from './json-pointer.js';

const facts: ConditionFacts = {
  statusOf: (id) => (id === 'test' ? 'failed' : 'not-run'),
  exists: (path) => path === 'report.md',
  jsonFile: (path) =>
    path === 'results.json'
      ? { value: { failed: 2, 'a/b': { '~x': [10, 20] }, names: ['x'] } }
      : { absent: 'not found' },
  sentinelOutput: (id) =>
    id === 'reviewer' ? { value: { verdict: 'fix' } } : { absent: 'no output yet' },
};
const check = (condition: Condition) => evaluateCondition(condition, facts);

describe('evaluateCondition', () => {
  it('reads statuses, files and sentinel outputs, with the deciding fact as the reason', () => {
    expect(check({ codon: 'test', status: 'failed' })).toEqual({
      holds: true,
      reason: 'codon test is failed',
    });
    expect(check({ codon: 'other', status: ['completed', 'failed'] }).holds).toBe(false);
    expect(check({ exists: 'missing.txt' })).toEqual({
      holds: false,
      reason: 'missing.txt does not exist',
    });
    expect(check({ json: 'results.json', pointer: '/failed', equals: 0 })).toEqual({
      holds: false,
      reason: 'results.json /failed is 2',
    });
    expect(check({ sentinel: 'reviewer', pointer: '/verdict', equals: 'fix' }).holds).toBe(true);
    expect(check({ sentinel: 'quiet', equals: 'fix' })).toEqual({
      holds: false,
      reason: 'sentinel quiet output: no output yet',
    });
  });

  it('compares deeply, and an absent value fails equals and satisfies notEquals', () => {
    expect(check({ json: 'results.json', pointer: '/names', equals: ['x'] }).holds).toBe(true);
    expect(check({ json: 'gone.json', pointer: '/failed', equals: 0 }).holds).toBe(false);
    expect(check({ json: 'gone.json', pointer: '/failed', notEquals: 0 })).toEqual({
      holds: true,
      reason: 'gone.json /failed: not found',
    });
    expect(check({ json: 'results.json', pointer: '/nope', notEquals: null }).holds).toBe(true);
  });

  it('combines: all names the first part that failed, any the first that held, not inverts', () => {
    const failedTest: Condition = { codon: 'test', status: 'failed' };
    const noReport: Condition = { not: { exists: 'report.md' } };
    expect(check({ all: [failedTest, noReport] })).toEqual({
      holds: false,
      reason: 'report.md exists',
    });
    expect(check({ any: [noReport, failedTest] })).toEqual({
      holds: true,
      reason: 'codon test is failed',
    });
    expect(check({ any: [noReport, { exists: 'x' }] })).toEqual({
      holds: false,
      reason: 'report.md exists, x does not exist',
    });
  });
});

describe('lookUpPointer (RFC 6901)', () => {
  const document = { 'a/b': { '~x': [10, 20] }, list: [1], zero: 0 };
  it('walks keys and indexes and unescapes ~1 and ~0', () => {
    expect(lookUpPointer(document, '')).toEqual({ value: document });
    expect(lookUpPointer(document, '/a~1b/~0x/1')).toEqual({ value: 20 });
    expect(lookUpPointer(document, '/zero')).toEqual({ value: 0 });
  });
  it('reports what is missing, and never reads inherited properties or bad indexes', () => {
    expect(lookUpPointer(document, '/list/1')).toEqual({ absent: '/list/1 is not in the array' });
    expect(lookUpPointer(document, '/list/01')).toHaveProperty('absent');
    expect(lookUpPointer(document, '/list/-')).toHaveProperty('absent');
    expect(lookUpPointer(document, '/constructor')).toEqual({ absent: '/constructor is missing' });
    expect(lookUpPointer(document, '/zero/x')).toEqual({ absent: '/zero/x is missing' });
  });
});
