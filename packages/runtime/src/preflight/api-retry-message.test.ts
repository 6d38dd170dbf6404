import { describe, expect, it } from 'vitest';
import { apiRetryMessage } from './api-retry-message.js';

const at = '2026-01-01T00:00:00.000Z';

describe('apiRetryMessage()', () => {
  it('shows the status, the error kind, the attempt and the delay', () => {
    expect(
      apiRetryMessage({
        type: 'api.retry',
        timestamp: at,
        attempt: 2,
        maxRetries: 10,
        retryDelayMs: 4000,
        errorStatus: 529,
        error: 'overloaded',
      }),
    ).toBe('API call failed (529 overloaded), retrying (attempt 2/10) in 4s');
  });

  it('says "no response" for a network error that has no status or kind', () => {
    expect(
      apiRetryMessage({ type: 'api.retry', timestamp: at, attempt: 1, retryDelayMs: 550 }),
    ).toBe('API call failed (no response), retrying (attempt 1) in 550ms');
  });

  it('keeps the error kind alone, and rounds long delays', () => {
    expect(
      apiRetryMessage({
        type: 'api.retry',
        timestamp: at,
        error: 'unknown',
        attempt: 7,
        maxRetries: 10,
        retryDelayMs: 32_712,
      }),
    ).toBe('API call failed (unknown), retrying (attempt 7/10) in 33s');
    expect(apiRetryMessage({ type: 'api.retry', timestamp: at, retryDelayMs: 1234 })).toBe(
      'API call failed (no response), retrying in 1.2s',
    );
  });
});
