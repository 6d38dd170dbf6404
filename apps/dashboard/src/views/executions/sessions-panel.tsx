/** The session registry (`/api/sessions`): pipelines and loops started with `hankweave`. */
import { pages } from '../../api/paths.js';
import { routes } from '../../api/routes.js';
import { EmptyState, ErrorPanel, Loading } from '../../components/feedback.js';
import { StatusBadge } from '../../components/values.js';
import { formatDateTime } from '../../format/format.js';
import { useApi } from '../../hooks/use-api.js';

export function SessionsPanel() {
  const sessions = useApi(routes.sessions, {}, { pollMs: 5000 });
  if (sessions.error !== undefined) {
    return <ErrorPanel error={sessions.error} onRetry={sessions.reload} />;
  }
  if (sessions.data === undefined) return <Loading what="sessions" />;
  if (sessions.data.sessions.length === 0) {
    return (
      <EmptyState>
        <p>No sessions registered under this base directory.</p>
        <p class="hint">Sessions appear when a pipeline or loop is started with hankweave.</p>
      </EmptyState>
    );
  }
  return (
    <table class="grid" data-testid="sessions-table">
      <thead>
        <tr>
          <th>Session</th>
          <th>Type</th>
          <th>Status</th>
          <th>Started</th>
          <th class="num">Pid</th>
          <th>Execution</th>
          <th>Parent</th>
        </tr>
      </thead>
      <tbody>
        {sessions.data.sessions.map((session) => (
          <tr key={session.key} data-testid="session-row" data-key={session.key}>
            <td class="mono">{session.key}</td>
            <td>{session.type}</td>
            <td>
              <StatusBadge status={session.status} testId="session-status" />
            </td>
            <td class="nowrap">{formatDateTime(session.startedAt)}</td>
            <td class="num">{session.pid ?? '—'}</td>
            <td class="mono">
              {session.executionId === undefined ? (
                '—'
              ) : (
                <a href={pages.execution(session.executionId)}>{session.executionId}</a>
              )}
            </td>
            <td class="mono">{session.parent ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
