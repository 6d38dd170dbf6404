import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from './parse-retry-after.js';

describe('parseRetryAfterMs()', () => {
  it.each([
    ['retry-after-ms: 1500', 1500],
    ['{"retry-after-ms":"250"}', 250],
    ['retry after 7s', 7000],
    ['Retry after 500 ms', 500],
    ['retry-after 2 minutes', 120_000],
    ['Retry-After: 30', 30_000],
    ['retry_after=12', 12_000],
    ['please try again in 45 seconds', 45_000],
    ['retry in 1.5s', 1500],
  ])('reads %j as %i ms', (text, ms) => {
    expect(parseRetryAfterMs(text)).toBe(ms);
  });

  it('prefers retry-after-ms over a bare Retry-After in the same text', () => {
    expect(parseRetryAfterMs('retry-after: 3, retry-after-ms: 2750')).toBe(2750);
  });

  it('ignores HTTP-dates, waits over an hour and texts without a wait', () => {
    expect(parseRetryAfterMs('Retry-After: Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
    expect(parseRetryAfterMs('retry after 61 minutes')).toBeUndefined();
    expect(parseRetryAfterMs('Retry-After: 3601')).toBeUndefined();
    expect(parseRetryAfterMs('try again in a moment')).toBeUndefined();
    expect(parseRetryAfterMs('')).toBeUndefined();
  });
});
