import { describe, expect, it } from 'vitest';
import {
  axisTimeLabel,
  durationBetween,
  formatClock,
  formatDuration,
  formatTokens,
  formatUsd,
  shortSha,
} from './format.js';

describe('formatUsd()', () => {
  it('shows four decimals under a dollar', () => {
    expect(formatUsd(0.0123)).toBe('$0.0123');
    expect(formatUsd(0)).toBe('$0.0000');
    expect(formatUsd(0.00004)).toBe('$0.0000');
  });
  it('shows two decimals from a dollar up', () => {
    expect(formatUsd(1)).toBe('$1.00');
    expect(formatUsd(12.345)).toBe('$12.35');
  });
  it('keeps the sign of a negative amount in front of the dollar', () => {
    expect(formatUsd(-0.5)).toBe('-$0.5000');
  });
  it('shows a dash for a missing or non-finite amount', () => {
    expect(formatUsd(undefined)).toBe('—');
    expect(formatUsd(Number.NaN)).toBe('—');
  });
});

describe('formatDuration()', () => {
  it('formats minutes with zero-padded seconds', () => {
    expect(formatDuration(62_000)).toBe('1m 02s');
    expect(formatDuration(60_000)).toBe('1m 00s');
  });
  it('uses ms below a second and one decimal below ten seconds', () => {
    expect(formatDuration(420)).toBe('420ms');
    expect(formatDuration(3_250)).toBe('3.2s');
    expect(formatDuration(9_999)).toBe('9.9s');
  });
  it('uses whole seconds from ten seconds to a minute', () => {
    expect(formatDuration(42_900)).toBe('42s');
  });
  it('uses hours and days for long executions', () => {
    expect(formatDuration(3_900_000)).toBe('1h 05m');
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000)).toBe('2d 03h');
  });
  it('shows a dash for missing or negative durations', () => {
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
  });
});

describe('durationBetween()', () => {
  it('measures between two ISO times', () => {
    expect(durationBetween('2026-01-01T00:00:00Z', '2026-01-01T00:01:02Z')).toBe(62_000);
  });
  it('measures up to now when the end is absent', () => {
    const now = Date.parse('2026-01-01T00:00:05Z');
    expect(durationBetween('2026-01-01T00:00:00Z', undefined, now)).toBe(5000);
  });
  it('returns undefined without a start or with an unparsable time', () => {
    expect(durationBetween(undefined, undefined)).toBeUndefined();
    expect(durationBetween('yesterday', undefined)).toBeUndefined();
  });
});

describe('formatTokens()', () => {
  it('abbreviates thousands and millions', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1234)).toBe('1.23k');
    expect(formatTokens(12_345)).toBe('12.3k');
    expect(formatTokens(4_560_000)).toBe('4.56M');
  });
});

describe('shortSha()', () => {
  it('keeps seven characters', () => {
    expect(shortSha('4d48bad0123456789')).toBe('4d48bad');
  });
});

describe('axisTimeLabel()', () => {
  it('labels a short span by the seconds since its start, so sub-second ticks differ', () => {
    const start = Date.parse('2026-11-24T14:03:07Z') / 1000;
    const ticks = [0, 0.5, 1, 1.5, 2].map((offset) =>
      axisTimeLabel(start + offset, 2.2, start, 0.5),
    );
    expect(ticks).toEqual(['0.0s', '0.5s', '1.0s', '1.5s', '2.0s']);
    expect(axisTimeLabel(start + 30, 90, start, 10)).toBe('30s');
  });

  const t = Date.parse('2026-11-24T14:03:07Z') / 1000;
  it('shows the clock for spans under a day', () => {
    expect(axisTimeLabel(t, 600)).toBe(formatClock('2026-11-24T14:03:07Z'));
  });
  it('adds the date and drops seconds for longer spans', () => {
    expect(axisTimeLabel(t, 3 * 86_400)).toMatch(/^\d\d-\d\d \d\d:\d\d$/);
  });
});
