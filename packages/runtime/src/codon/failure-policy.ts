import type { CodonConfig, FailureReason } from '@hankweave/types';

/** What to do after a codon failed (reference §4.9 "Failure policy"). */
export type FailureAction =
  | { action: 'retry'; attempt: number; maxAttempts: number; delayMs: number }
  | { action: 'continue' }
  | { action: 'stay-active' }
  | { action: 'shutdown' };

const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * Decides the failure policy: `ignore` continues; `retry` retries a retriable failure with
 * exponential backoff (Retry-After wins) until `maxAttempts`; `abort` stays active for a retriable
 * failure (the user may retry or roll back) and shuts down otherwise. `attempt` counts the
 * attempts made so far (1 after the first failure).
 */
export function decideFailureAction(
  codon: Pick<CodonConfig, 'onFailure' | 'retryConfig'>,
  reason: FailureReason,
  attempt: number,
): FailureAction {
  if (codon.onFailure === 'ignore') return { action: 'continue' };
  if (codon.onFailure === 'retry') {
    const maxAttempts = codon.retryConfig?.maxAttempts ?? 3;
    if (!reason.retriable || attempt >= maxAttempts) return { action: 'shutdown' };
    return {
      action: 'retry',
      attempt: attempt + 1,
      maxAttempts,
      delayMs: retryDelayMs(codon, reason, attempt),
    };
  }
  return reason.retriable ? { action: 'stay-active' } : { action: 'shutdown' };
}

/** `delayMs · 2^(attempt-1)`, capped at `maxDelayMs`, no jitter; a Retry-After up to 1 h wins. */
export function retryDelayMs(
  codon: Pick<CodonConfig, 'retryConfig'>,
  reason: FailureReason,
  attempt: number,
): number {
  if (reason.retryAfterMs !== undefined && reason.retryAfterMs <= MAX_RETRY_AFTER_MS)
    return reason.retryAfterMs;
  const base = codon.retryConfig?.delayMs ?? 1000;
  const cap = codon.retryConfig?.maxDelayMs || 60_000;
  return Math.min(cap, Math.max(0, base * 2 ** Math.min(Math.max(attempt - 1, 0), 30)));
}
