import { describe, expect, it } from 'vitest';
import { decideFailureAction, retryDelayMs } from './failure-policy.js';

const retriable = { type: 'api-error' as const, retriable: true, message: 'x' };
const fatal = { type: 'api-error' as const, retriable: false, message: 'x' };

describe('decideFailureAction()', () => {
  it('continues on ignore, whatever the failure', () => {
    expect(decideFailureAction({ onFailure: 'ignore' }, fatal, 1)).toEqual({ action: 'continue' });
  });

  it('stays active on a retriable abort and shuts down on a fatal one', () => {
    expect(decideFailureAction({ onFailure: 'abort' }, retriable, 1)).toEqual({
      action: 'stay-active',
    });
    expect(decideFailureAction({ onFailure: 'abort' }, fatal, 1)).toEqual({ action: 'shutdown' });
  });

  it('retries until maxAttempts, never a fatal failure', () => {
    const codon = {
      onFailure: 'retry' as const,
      retryConfig: { maxAttempts: 3, delayMs: 100, maxDelayMs: 1000 },
    };
    expect(decideFailureAction(codon, retriable, 1)).toEqual({
      action: 'retry',
      attempt: 2,
      maxAttempts: 3,
      delayMs: 100,
    });
    expect(decideFailureAction(codon, retriable, 2)).toMatchObject({
      action: 'retry',
      attempt: 3,
      delayMs: 200,
    });
    expect(decideFailureAction(codon, retriable, 3)).toEqual({ action: 'shutdown' });
    expect(decideFailureAction(codon, fatal, 1)).toEqual({ action: 'shutdown' });
  });
});

describe('retryDelayMs()', () => {
  it('doubles per attempt up to the cap, and lets Retry-After win below an hour', () => {
    const codon = { retryConfig: { maxAttempts: 10, delayMs: 1000, maxDelayMs: 5000 } };
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(codon, retriable, attempt))).toEqual([
      1000, 2000, 4000, 5000,
    ]);
    expect(retryDelayMs(codon, { ...retriable, retryAfterMs: 7000 }, 1)).toBe(7000);
    expect(retryDelayMs(codon, { ...retriable, retryAfterMs: 2 * 3600_000 }, 1)).toBe(1000);
  });
});
