/** The run tree: each run, and the runs that continue it (retry, rollback, continue), nested. */
import { pages } from '../../api/paths.js';
import type { RunNode } from '../../api/types.js';
import { Duration, StatusBadge, Usd } from '../../components/values.js';
import { displayStatus } from '../../format/display-status.js';
import { durationBetween, formatDateTime, shortSha } from '../../format/format.js';
import { runNumbers } from './run-numbers.js';

function RunItem(props: { run: RunNode; executionId: string; numbers: Map<string, number> }) {
  const { run, executionId, numbers } = props;
  const reason = run.reason ?? 'fresh';
  const number = (runId: string) => numbers.get(runId) ?? '?';
  return (
    <li
      data-testid="run-node"
      data-run-id={run.runId}
      data-reason={reason}
      data-status={displayStatus(run)}
    >
      <div class="run-line">
        <strong class="nowrap">run {number(run.runId)}</strong>
        <span class={`reason reason-${reason}`}>{reason}</span>
        <StatusBadge status={displayStatus(run)} testId="run-status" />
        <span class="spacer" />
        <span class="muted nowrap">
          {run.codonCount} codon{run.codonCount === 1 ? '' : 's'}
        </span>
        <Duration ms={durationBetween(run.startTime, run.endTime)} />
        <Usd usd={run.costUsd} testId="run-cost" />
      </div>
      <div class="run-meta muted">
        <span class="mono" title="run id">
          {run.runId}
        </span>
        <span class="nowrap">{formatDateTime(run.startTime)}</span>
        {run.from !== undefined && (
          <span>
            continues run {number(run.from.runId)} after {run.from.afterCodon ?? 'the start'} at{' '}
            <a
              class="mono"
              href={pages.checkpoints(executionId, { to: run.from.checkpointSha })}
              title={run.from.checkpointSha}
            >
              {shortSha(run.from.checkpointSha)}
            </a>
          </span>
        )}
      </div>
      {run.children.length > 0 && (
        <ul>
          {run.children.map((child) => (
            <RunItem key={child.runId} run={child} executionId={executionId} numbers={numbers} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function RunTree({ runs, executionId }: { runs: RunNode[]; executionId: string }) {
  const numbers = runNumbers(runs);
  return (
    <section class="panel" data-testid="run-tree">
      <h3>Runs</h3>
      {runs.length === 0 ? (
        <p class="muted">No runs yet.</p>
      ) : (
        <ul class="run-tree">
          {runs.map((run) => (
            <RunItem key={run.runId} run={run} executionId={executionId} numbers={numbers} />
          ))}
        </ul>
      )}
    </section>
  );
}
