/**
 * `/executions/:id/checkpoints?from=&to=`: every checkpoint of the execution; pick any two (A and
 * B) for a side-by-side diff. With `--write`, a stopped execution can be rolled back to any row.
 */
import { useLocation } from 'preact-iso/router';
import { useActionFlow } from '../../actions/use-action-flow.js';
import { pages } from '../../api/paths.js';
import { routes } from '../../api/routes.js';
import type { CheckpointWire } from '../../api/types.js';
import { EmptyState, ErrorPanel, Loading } from '../../components/feedback.js';
import { formatDateTime, shortSha } from '../../format/format.js';
import { useServerInfo } from '../../hooks/server-info.js';
import { useApi } from '../../hooks/use-api.js';
import { useTitle } from '../../hooks/use-title.js';
import { defaultFrom, findCheckpoint, normalizeCheckpoints } from './checkpoint-picks.js';
import { DiffView } from './diff-view.js';

export default function CheckpointsPage({ id }: { id: string }) {
  const { query, route } = useLocation();
  const info = useServerInfo();
  const answer = useApi(routes.checkpoints, { id });
  const execution = useApi(routes.execution, { id });
  useTitle(`checkpoints of ${execution.data?.summary.hankName ?? id}`);
  const flow = useActionFlow(id, () => {
    answer.reload();
    execution.reload();
  });

  if (answer.error !== undefined)
    return <ErrorPanel error={answer.error} onRetry={answer.reload} />;
  if (answer.data === undefined) return <Loading what="checkpoints" />;
  const list = normalizeCheckpoints(answer.data);
  const to = findCheckpoint(list, query.to)?.sha;
  const from =
    findCheckpoint(list, query.from)?.sha ??
    (query.from === undefined ? defaultFrom(list, to) : undefined);
  const pick = (next: { from?: string; to?: string }) =>
    route(pages.checkpoints(id, { from, to, ...next }), true);
  const live = execution.data?.summary.live === true;
  const canRollback = info?.write === true && execution.data !== undefined && !live;

  const rollback = (checkpoint: CheckpointWire) =>
    flow.request('rollback', {
      hankName: execution.data?.summary.hankName ?? id,
      executionId: id,
      executionDir: execution.data?.summary.dir,
      checkpoint,
    });

  return (
    <section class="page checkpoints-page">
      <nav class="crumbs">
        <a href={pages.execution(id)} data-testid="back-to-execution">
          ← {execution.data?.summary.hankName ?? id}
        </a>
      </nav>
      {flow.element}
      <section class="panel">
        <div class="toolbar">
          <h3>Checkpoints</h3>
          <span class="muted">pick A (before) and B (after) to compare</span>
          <span class="spacer" />
          {from !== undefined && to !== undefined && (
            <button
              type="button"
              data-testid="swap-picks"
              onClick={() => pick({ from: to, to: from })}
            >
              Swap A ⇄ B
            </button>
          )}
        </div>
        {info?.write === true && live && (
          <p class="hint">Rollback needs the execution stopped first (it is running now).</p>
        )}
        {list.length === 0 ? (
          <EmptyState>
            <p>This execution has no checkpoints yet: one is taken as each codon ends.</p>
          </EmptyState>
        ) : (
          <table class="grid checkpoints" data-testid="checkpoints-table">
            <thead>
              <tr>
                <th>A</th>
                <th>B</th>
                <th>Sha</th>
                <th>Type</th>
                <th>Codon</th>
                <th>Run</th>
                <th>Time</th>
                <th>Message</th>
                {canRollback && <th />}
              </tr>
            </thead>
            <tbody>
              {list.map((checkpoint) => (
                <tr
                  key={checkpoint.sha}
                  data-testid="checkpoint-row"
                  data-sha={checkpoint.sha}
                  class={checkpoint.sha === from || checkpoint.sha === to ? 'picked' : undefined}
                >
                  <td>
                    <input
                      type="radio"
                      name="from"
                      aria-label={`A: ${shortSha(checkpoint.sha)}`}
                      data-testid="pick-from"
                      checked={checkpoint.sha === from}
                      onChange={() => pick({ from: checkpoint.sha })}
                    />
                  </td>
                  <td>
                    <input
                      type="radio"
                      name="to"
                      aria-label={`B: ${shortSha(checkpoint.sha)}`}
                      data-testid="pick-to"
                      checked={checkpoint.sha === to}
                      onChange={() => pick({ to: checkpoint.sha })}
                    />
                  </td>
                  <td class="mono" title={checkpoint.sha}>
                    {shortSha(checkpoint.sha)}
                  </td>
                  <td>
                    <span class={`tag type-${checkpoint.type}`}>{checkpoint.type}</span>
                  </td>
                  <td class="mono">{checkpoint.codonId ?? '—'}</td>
                  <td class="mono">{checkpoint.runId ?? '—'}</td>
                  <td class="nowrap">{formatDateTime(checkpoint.time)}</td>
                  <td class="message" title={checkpoint.message}>
                    {checkpoint.message}
                  </td>
                  {canRollback && (
                    <td>
                      <button
                        type="button"
                        class="small"
                        data-testid="action-rollback"
                        data-sha={checkpoint.sha}
                        onClick={() => rollback(checkpoint)}
                      >
                        Roll back here
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {from !== undefined && to !== undefined ? (
        from === to ? (
          <p class="hint">A and B are the same checkpoint: pick another one.</p>
        ) : (
          <DiffView executionId={id} from={from} to={to} file={query.file} />
        )
      ) : (
        list.length > 1 && (
          <p class="hint">Pick {from === undefined ? 'A' : 'B'} to see the diff.</p>
        )
      )}
    </section>
  );
}
