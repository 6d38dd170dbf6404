/** `/`: every execution under the base directory, and the session registry as a second tab. */

import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { EXECUTION_STATUSES } from '../../api/constants.js';
import { pages } from '../../api/paths.js';
import { routes } from '../../api/routes.js';
import { EmptyState, ErrorPanel, Loading } from '../../components/feedback.js';
import { useServerInfo } from '../../hooks/server-info.js';
import { useApi } from '../../hooks/use-api.js';
import { useTitle } from '../../hooks/use-title.js';
import { ExecutionsTable } from './executions-table.js';
import {
  type ListQuery,
  listQueryToParams,
  listRequest,
  pageCount,
  parseListQuery,
} from './list-query.js';
import { SessionsPanel } from './sessions-panel.js';

export function ExecutionsPage() {
  const location = useLocation();
  const query = parseListQuery(location.query);
  useTitle(query.tab === 'sessions' ? 'sessions' : 'executions');
  const go = (next: ListQuery) => location.route(pages.executions(listQueryToParams(next)), true);

  return (
    <section class="page">
      <div class="tabs" role="tablist">
        <a
          role="tab"
          href={pages.executions(listQueryToParams({ ...query, tab: 'executions' }))}
          aria-selected={query.tab === 'executions'}
          data-testid="executions-tab"
        >
          Executions
        </a>
        <a
          role="tab"
          href={pages.executions({ tab: 'sessions' })}
          aria-selected={query.tab === 'sessions'}
          data-testid="sessions-tab"
        >
          Sessions
        </a>
      </div>
      {query.tab === 'sessions' ? <SessionsPanel /> : <ExecutionsPanel query={query} go={go} />}
    </section>
  );
}

function ExecutionsPanel({ query, go }: { query: ListQuery; go: (next: ListQuery) => void }) {
  const info = useServerInfo();
  // Poll so statuses, live markers and new executions appear without a reload.
  const list = useApi(routes.executions, listRequest(query), {
    pollMs: 5000,
    keepPrevious: true,
  });
  const [text, setText] = useState(query.q);

  // The URL changed under the box (back button, a link): show its filter.
  useEffect(() => {
    if (query.q !== text.trim()) setText(query.q);
  }, [query.q]);

  useEffect(() => {
    if (text.trim() === query.q) return;
    const timer = setTimeout(() => go({ ...query, q: text.trim(), page: 1 }), 250);
    return () => clearTimeout(timer);
  }, [text]);

  const filtered = query.status !== undefined || query.q !== '';
  const total = list.data?.total ?? 0;
  const lastPage = pageCount(total);

  return (
    <>
      <div class="toolbar">
        <select
          data-testid="status-filter"
          aria-label="Status"
          value={query.status ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value;
            go({
              ...query,
              status: value === '' ? undefined : (value as ListQuery['status']),
              page: 1,
            });
          }}
        >
          <option value="">all statuses</option>
          {EXECUTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
        <input
          type="search"
          placeholder="Filter by hank, data or id"
          aria-label="Filter"
          data-testid="text-filter"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <span class="spacer" />
        {list.data !== undefined && (
          <span class="muted" data-testid="execution-count" data-total={String(total)}>
            {total} execution{total === 1 ? '' : 's'}
          </span>
        )}
      </div>
      {list.error !== undefined && <ErrorPanel error={list.error} onRetry={list.reload} />}
      {list.loading && <Loading what="executions" />}
      {list.data !== undefined && list.data.executions.length === 0 && (
        <EmptyState>
          {filtered ? (
            <p>No executions match this filter.</p>
          ) : (
            <>
              <p>
                No executions under <code>{info?.baseDir ?? 'the base directory'}</code>.
              </p>
              <p class="hint">
                Run <code>hankweave init my-hank</code>, then{' '}
                <code>
                  hankweave my-hank my-hank/data --scripted-model my-hank/model-script.json
                </code>{' '}
                for an offline run; it appears here as it starts.
              </p>
            </>
          )}
        </EmptyState>
      )}
      {list.data !== undefined && list.data.executions.length > 0 && (
        <>
          <ExecutionsTable rows={list.data.executions} query={query} go={go} />
          <div class="pager">
            <button
              type="button"
              data-testid="page-prev"
              disabled={query.page <= 1}
              onClick={() => go({ ...query, page: query.page - 1 })}
            >
              ← Newer
            </button>
            <span data-testid="page-info">
              page {Math.min(query.page, lastPage)} of {lastPage}
            </span>
            <button
              type="button"
              data-testid="page-next"
              disabled={query.page >= lastPage}
              onClick={() => go({ ...query, page: query.page + 1 })}
            >
              Older →
            </button>
          </div>
        </>
      )}
    </>
  );
}
