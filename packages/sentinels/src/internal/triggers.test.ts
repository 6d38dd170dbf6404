import type { SentinelTrigger } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { event } from '../../test/helpers.js';
import { isPathValidFor } from './condition-paths.js';
import { conditionHolds } from './conditions.js';
import { createTriggerMatcher } from './triggers.js';

const A = (n: number, extra = {}) => event('assistant.action', { action: 'message', ...extra }, n);
const T = (n: number, isError = false) => event('tool.result', { isError }, n);

describe('createTriggerMatcher()', () => {
  it('matches any type with * and ANDs conditions', () => {
    const m = createTriggerMatcher({
      type: 'event',
      on: ['*'],
      conditions: [{ path: 'action', operator: 'equals', value: 'message' }],
    });
    expect(m.match(A(1))).toHaveLength(1);
    expect(m.match(T(2))).toBeUndefined();
  });

  it('matches a consecutive sequence only at the tail, and never reuses events', () => {
    const trigger: SentinelTrigger = {
      type: 'sequence',
      interestFilter: { on: ['assistant.action', 'tool.result'] },
      pattern: [{ type: 'assistant.action' }, { type: 'tool.result' }],
    };
    const m = createTriggerMatcher(trigger);
    expect(m.match(A(1))).toBeUndefined();
    expect(m.match(A(2))).toBeUndefined();
    expect(m.match(T(3))?.map((e) => e.timestamp)).toEqual([A(2).timestamp, T(3).timestamp]);
    expect(m.match(T(4))).toBeUndefined();
  });

  it('allows gaps when consecutive is false', () => {
    const m = createTriggerMatcher({
      type: 'sequence',
      interestFilter: { on: ['*'] },
      pattern: [{ type: 'assistant.action' }, { type: 'tool.result' }, { type: 'tool.result' }],
      options: { consecutive: false },
    });
    expect(m.match(A(1))).toBeUndefined();
    expect(m.match(T(2))).toBeUndefined();
    expect(m.match(A(3))).toBeUndefined();
    expect(m.match(T(4))).toHaveLength(3);
  });

  it('ignores events outside the interest filter', () => {
    const m = createTriggerMatcher({
      type: 'sequence',
      interestFilter: { on: ['tool.result'] },
      pattern: [
        { type: 'tool.result' },
        { type: 'tool.result', conditions: [{ path: 'isError', operator: 'equals', value: true }] },
      ],
    });
    expect(m.match(T(1))).toBeUndefined();
    expect(m.match(A(2))).toBeUndefined();
    expect(m.match(T(3, true))).toHaveLength(2);
  });
});

describe('conditionHolds()', () => {
  const data = { a: { b: 'hello world', n: 5, list: ['x', 'y'] } };
  it.each([
    [{ path: 'a.b', operator: 'equals', value: 'hello world' }, true],
    [{ path: 'a.b', operator: 'notEquals', value: 'x' }, true],
    [{ path: 'a.n', operator: 'in', value: [4, 5] }, true],
    [{ path: 'a.n', operator: 'notIn', value: [5] }, false],
    [{ path: 'a.b', operator: 'contains', value: 'world' }, true],
    [{ path: 'a.list', operator: 'contains', value: 'y' }, true],
    [{ path: 'a.b', operator: 'matches', value: '^hel+o' }, true],
    [{ path: 'a.b', operator: 'matches', value: '(' }, false],
    [{ path: 'a.n', operator: 'greaterThan', value: 4 }, true],
    [{ path: 'a.n', operator: 'lessThan', value: 4 }, false],
    [{ path: 'a.missing', operator: 'notEquals', value: 'x' }, false],
  ] as const)('%j → %s', (condition, expected) => {
    expect(conditionHolds(condition as never, data)).toBe(expected);
  });
});

describe('isPathValidFor()', () => {
  it('accepts fields of the event data, nested ones too', () => {
    expect(isPathValidFor('exitStatus.type', ['codon.completed'])).toBe(true);
    expect(isPathValidFor('toolName', ['codon.completed', 'tool.result'])).toBe(true);
    expect(isPathValidFor('anything.at.all', ['*'])).toBe(true);
  });
  it('rejects unknown fields', () => {
    expect(isPathValidFor('exitStatus.kind', ['codon.completed'])).toBe(false);
    expect(isPathValidFor('nope', ['tool.result'])).toBe(false);
  });
});
