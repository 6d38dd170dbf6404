import type { ApiRetryEvent } from '@hankweave/harness';

/**
 * The line a user sees when the agent retries an API call: why it failed (status and the
 * agent's error kind, or "no response" for a network error), which attempt, and when the next
 * one starts. "API call failed (529 overloaded), retrying (attempt 2/10) in 4s".
 */
export function apiRetryMessage(event: ApiRetryEvent): string {
  const reason = [event.errorStatus, event.error].filter((part) => part !== undefined).join(' ');
  const attempt =
    event.attempt !== undefined
      ? ` (attempt ${event.attempt}${event.maxRetries !== undefined ? `/${event.maxRetries}` : ''})`
      : '';
  const delay = event.retryDelayMs !== undefined ? ` in ${formatDelay(event.retryDelayMs)}` : '';
  return `API call failed (${reason || 'no response'}), retrying${attempt}${delay}`;
}

function formatDelay(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = ms / 1000;
  return seconds < 10 ? `${Number(seconds.toFixed(1))}s` : `${Math.round(seconds)}s`;
}
