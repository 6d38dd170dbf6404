/**
 * Small value renderers that carry their raw value for browser tests: a cost keeps its USD number
 * in `data-usd`, a status its name in `data-status`, a duration its ms in `data-ms`.
 */
import { formatDuration, formatUsd } from '../format/format.js';

export function Usd({ usd, testId }: { usd: number | undefined; testId?: string }) {
  return (
    <span class="num" data-testid={testId} data-usd={usd === undefined ? undefined : String(usd)}>
      {formatUsd(usd)}
    </span>
  );
}

export function Duration({ ms, testId }: { ms: number | undefined; testId?: string }) {
  return (
    <span class="num" data-testid={testId} data-ms={ms === undefined ? undefined : String(ms)}>
      {formatDuration(ms)}
    </span>
  );
}

/** Statuses of executions, runs and codons share one palette (see styles/base.css). */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <span class={`status status-${status}`} data-testid={testId} data-status={status}>
      {status}
    </span>
  );
}

export function LiveMarker({ testId = 'live-marker' }: { testId?: string }) {
  return (
    <span class="live-marker" data-testid={testId} title="A runtime holds this execution's lock">
      live
    </span>
  );
}
