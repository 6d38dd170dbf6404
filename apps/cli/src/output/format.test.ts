import { describe, expect, it } from 'vitest';
import { elapsedMs, fit, formatCost, formatCount, formatDuration, truncate } from './format.js';

describe('formatDuration()', () => {
  it('uses the largest sensible unit', () => {
    expect([850, 1340, 125_000, 3_720_000].map(formatDuration)).toEqual([
      '850ms',
      '1.3s',
      '2m 05s',
      '1h 02m',
    ]);
  });
});

describe('formatCost() and formatCount()', () => {
  it('keeps four decimals below a dollar and shortens large counts', () => {
    expect([formatCost(0.01681), formatCost(12.4)]).toEqual(['$0.0168', '$12.40']);
    expect([-0, -0.00001, -0.00004, 0.00004].map(formatCost)).toEqual([
      '$0.0000',
      '$0.0000',
      '$0.0000',
      '$0.0000',
    ]);
    expect([formatCost(-0.0012), formatCost(-3.5), formatCost(Number.NaN)]).toEqual([
      '-$0.0012',
      '-$3.50',
      '-',
    ]);
    expect([850, 7100, 52_000, 1_250_000].map(formatCount)).toEqual(['850', '7.1k', '52k', '1.3M']);
  });
});

describe('truncate() and fit()', () => {
  it('cuts with an ellipsis and pads to the width', () => {
    expect(truncate('Summarise the observations', 10)).toBe('Summarise…');
    expect(fit('id', 4)).toBe('id  ');
    expect(fit('⠋⠙⠹', 2)).toBe('⠋…');
  });
});

describe('elapsedMs()', () => {
  it('measures to the end time, else to now', () => {
    expect(elapsedMs('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.500Z')).toBe(1500);
    expect(
      elapsedMs('2026-01-01T00:00:00.000Z', undefined, Date.parse('2026-01-01T00:00:02.000Z')),
    ).toBe(2000);
    expect(elapsedMs(undefined)).toBeUndefined();
  });
});
