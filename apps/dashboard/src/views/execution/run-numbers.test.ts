import { describe, expect, it } from 'vitest';
import type { RunNode } from '../../api/types.js';
import { runNumbers } from './run-numbers.js';

const run = (runId: string, minute: number, children: RunNode[] = []): RunNode => ({
  runId,
  status: 'completed',
  startTime: new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString(),
  codonCount: 1,
  costUsd: 0,
  children,
});

describe('runNumbers()', () => {
  it('numbers every run of the tree in start order', () => {
    const tree = [run('a', 0, [run('c', 5), run('b', 2, [run('d', 9)])])];
    expect([...runNumbers(tree)]).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
  });
});
