/** Loading, error and empty states: every view shows these three the same way. */
import type { ComponentChildren } from 'preact';
import type { ApiRequestError } from '../api/api-error.js';

export function ErrorPanel({ error, onRetry }: { error: ApiRequestError; onRetry?: () => void }) {
  return (
    <div class="panel error-panel" role="alert" data-testid="error-panel" data-code={error.code}>
      <div class="error-title">
        <strong data-testid="error-message">{error.message}</strong>
        <code class="muted" data-testid="error-code">
          {error.status > 0 ? `${error.status} ${error.code}` : error.code}
        </code>
      </div>
      {error.hint !== undefined && (
        <p class="hint" data-testid="error-hint">
          {error.hint}
        </p>
      )}
      {onRetry !== undefined && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div class="loading" data-testid="loading" aria-busy="true">
      Loading {what}…
    </div>
  );
}

export function EmptyState({ children }: { children: ComponentChildren }) {
  return (
    <div class="panel empty-state" data-testid="empty-state">
      {children}
    </div>
  );
}
