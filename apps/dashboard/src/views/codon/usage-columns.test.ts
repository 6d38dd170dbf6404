import { describe, expect, it } from 'vitest';
import { usageColumns } from './usage-columns.js';

describe('usageColumns()', () => {
  it('sorts points by time into seconds, input, output and cost columns', () => {
    const columns = usageColumns([
      { t: '2026-01-01T00:00:02Z', input: 20, output: 4, costUsd: 0.2 },
      { t: '2026-01-01T00:00:01Z', input: 10, output: 2, costUsd: 0.1 },
    ]);
    const t0 = Date.parse('2026-01-01T00:00:01Z') / 1000;
    expect(columns).toEqual([
      [t0, t0 + 1],
      [10, 20],
      [2, 4],
      [0.1, 0.2],
    ]);
  });
  it('drops points with an unreadable time', () => {
    expect(usageColumns([{ t: 'soon', input: 1, output: 1, costUsd: 0 }])[0]).toEqual([]);
  });
});
