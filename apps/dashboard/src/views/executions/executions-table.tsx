/** The execution list's table: one row per execution, sortable headers, a row opens it. */
import { useLocation } from 'preact-iso/router';
import type { ExecutionSortKey } from '../../api/constants.js';
import { pages } from '../../api/paths.js';
import type { ExecutionSummary } from '../../api/types.js';
import { Duration, LiveMarker, StatusBadge, Usd } from '../../components/values.js';
import { distinctLabels } from '../../format/distinct-paths.js';
import { formatDateTime } from '../../format/format.js';
import { type ListQuery, sortExecutions, toggleSort } from './list-query.js';

function SortHeader(props: {
  label: string;
  sortKey: ExecutionSortKey;
  query: ListQuery;
  go: (next: ListQuery) => void;
  numeric?: boolean;
}) {
  const active = props.query.sort === props.sortKey;
  return (
    <th
      class={props.numeric ? 'num' : undefined}
      aria-sort={active ? (props.query.order === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <button
        type="button"
        class="sort"
        data-testid={`sort-${props.sortKey}`}
        onClick={() => props.go(toggleSort(props.query, props.sortKey))}
      >
        {props.label}
        {active && (props.query.order === 'asc' ? ' ▲' : ' ▼')}
      </button>
    </th>
  );
}

export function ExecutionsTable(props: {
  rows: ExecutionSummary[];
  query: ListQuery;
  go: (next: ListQuery) => void;
}) {
  const { route } = useLocation();
  const rows = sortExecutions(props.rows, props.query.sort, props.query.order);
  // `data` three times says nothing: each data path as its shortest distinct ending.
  const dataLabels = distinctLabels(
    rows.flatMap((row) => (row.dataPath === undefined ? [] : [row.dataPath])),
  );
  const header = { query: props.query, go: props.go };
  return (
    <table class="grid executions" data-testid="executions-table">
      <thead>
        <tr>
          <SortHeader label="Status" sortKey="status" {...header} />
          <SortHeader label="Hank" sortKey="hank" {...header} />
          <th>Data</th>
          <SortHeader label="Started" sortKey="started" {...header} />
          <SortHeader label="Duration" sortKey="duration" numeric {...header} />
          <SortHeader label="Cost" sortKey="cost" numeric {...header} />
          <th class="num">Codons</th>
          <th>Models</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.id}
            class="clickable"
            data-testid="execution-row"
            data-id={row.id}
            onClick={(event) => {
              // Let the link inside handle its own click (and middle/ctrl clicks).
              if ((event.target as HTMLElement).closest('a') === null) {
                route(pages.execution(row.id));
              }
            }}
          >
            <td>
              <StatusBadge status={row.status} testId="execution-status" />
              {row.live && <LiveMarker />}
            </td>
            <td>
              <a href={pages.execution(row.id)} data-testid="execution-link" title={row.id}>
                {row.hankName}
              </a>
              <div class="sub mono">{row.id}</div>
              {row.fleet && (
                <div
                  class="sub"
                  data-testid="execution-fleet"
                  data-worker={row.fleet.worker}
                  data-files={String(row.fleet.files)}
                >
                  fleet · {row.fleet.worker ?? 'a worker'}
                  {!row.fleet.files && ' · database only'}
                </div>
              )}
            </td>
            <td class="mono" title={row.dataPath} data-testid="execution-data">
              {row.dataPath === undefined ? '—' : (dataLabels.get(row.dataPath) ?? row.dataPath)}
            </td>
            <td class="nowrap" data-testid="execution-started" data-time={row.startedAt}>
              {formatDateTime(row.startedAt)}
            </td>
            <td class="num">
              <Duration ms={row.durationMs} testId="execution-duration" />
            </td>
            <td class="num">
              <Usd usd={row.costUsd} testId="execution-cost" />
            </td>
            <td class="num nowrap" data-testid="execution-codons">
              <span title="completed">{row.codons.completed}</span>
              {row.codons.failed > 0 && (
                <span class="text-failed" title="failed">
                  {' '}
                  ✕{row.codons.failed}
                </span>
              )}
              {(row.codons.interrupted ?? 0) > 0 && (
                <span class="text-interrupted" title="interrupted">
                  {' '}
                  ■{row.codons.interrupted}
                </span>
              )}
              {row.codons.skipped > 0 && (
                <span class="muted" title="skipped">
                  {' '}
                  ⤼{row.codons.skipped}
                </span>
              )}
              <span class="muted"> / {row.codons.planned}</span>
            </td>
            <td class="models">{row.models.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
