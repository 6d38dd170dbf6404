/** The execution's header: what it is, its status, cost and duration, and its action buttons. */

import { useState } from 'preact/hooks';
import type { ActionFlow } from '../../actions/use-action-flow.js';
import { pages } from '../../api/paths.js';
import type { ExecutionDetail, ExecutionSummary } from '../../api/types.js';
import { Duration, LiveMarker, StatusBadge, Usd } from '../../components/values.js';
import { durationBetween, formatDateTime } from '../../format/format.js';
import { useNow } from '../../hooks/use-now.js';
import { runningBars, runningLabel } from './running-codons.js';

function Actions({
  detail,
  live,
  flow,
}: {
  detail: ExecutionDetail;
  live: boolean;
  flow: ActionFlow;
}) {
  const { summary } = detail;
  const running = runningBars(detail.bars);
  // Skip and Force-stop act on one codon: the one chosen, while it runs, else the newest.
  const [chosen, choose] = useState<string | undefined>(undefined);
  const target = running.find((bar) => bar.codonId === chosen) ?? running.at(-1);
  const context = {
    hankName: summary.hankName,
    executionId: summary.id,
    executionDir: summary.dir,
    runningCodon: target === undefined ? undefined : { name: target.name, codonId: target.codonId },
  };
  if (live) {
    return (
      <div class="actions" data-testid="actions">
        {running.length > 1 && (
          <select
            data-testid="action-codon"
            aria-label="Running codon to skip or stop"
            value={target?.codonId}
            onChange={(event) => choose(event.currentTarget.value)}
          >
            {running.map((bar) => (
              <option key={bar.key} value={bar.codonId}>
                {runningLabel(bar)}
              </option>
            ))}
          </select>
        )}
        <button
          type="button"
          data-testid="action-skip"
          disabled={target === undefined}
          onClick={() => flow.request('skip', context)}
        >
          Skip codon
        </button>
        <button
          type="button"
          data-testid="action-stop"
          class="danger"
          disabled={target === undefined}
          onClick={() => flow.request('stop', context)}
        >
          Force-stop
        </button>
        <button
          type="button"
          data-testid="action-next"
          onClick={() => flow.request('next', context)}
        >
          Next codon
        </button>
      </div>
    );
  }
  return (
    <div class="actions" data-testid="actions">
      <button
        type="button"
        data-testid="action-rollback-last-success"
        onClick={() => flow.request('rollback', { ...context, checkpoint: 'last-success' })}
      >
        Roll back to last success
      </button>
      <a href={pages.checkpoints(summary.id)} class="button">
        Pick a checkpoint…
      </a>
    </div>
  );
}

/** Where a fleet execution ran, and whether its files (checkpoints, actions) are here. */
export function FleetNote(props: { fleet: NonNullable<ExecutionSummary['fleet']> }) {
  const { fleet } = props;
  return (
    <span class="mono">
      {fleet.worker ?? 'a worker'}
      {fleet.jobId && ` · job ${fleet.jobId}`} · written {formatDateTime(fleet.updatedAt)}
      {!fleet.files && (
        <span class="muted"> · from the fleet database (its files are not on this machine)</span>
      )}
    </span>
  );
}

export function ExecutionHeader(props: {
  detail: ExecutionDetail;
  live: boolean;
  write: boolean;
  flow: ActionFlow;
  onReload: () => void;
}) {
  const { summary } = props.detail;
  const now = useNow(props.live ? 1000 : null);
  const duration = props.live
    ? durationBetween(summary.startedAt, undefined, now)
    : summary.durationMs;
  return (
    <header class="panel execution-header" data-testid="execution-header" data-id={summary.id}>
      <div class="title-line">
        <h2>{summary.hankName}</h2>
        <StatusBadge status={summary.status} testId="execution-status" />
        {props.live && <LiveMarker />}
        <span class="spacer" />
        <a href={pages.checkpoints(summary.id)} data-testid="checkpoints-link">
          Checkpoints
        </a>
        <button type="button" class="link" onClick={props.onReload}>
          Reload
        </button>
      </div>
      <dl class="facts">
        <div>
          <dt>Cost</dt>
          <dd>
            <Usd usd={summary.costUsd} testId="execution-cost" />
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>
            <Duration ms={duration} testId="execution-duration" />
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(summary.startedAt)}</dd>
        </div>
        <div>
          <dt>Codons</dt>
          <dd data-testid="execution-codons">
            {summary.codons.completed} done · {summary.codons.failed} failed ·{' '}
            {(summary.codons.interrupted ?? 0) > 0 &&
              `${summary.codons.interrupted} interrupted · `}
            {summary.codons.skipped} skipped / {summary.codons.planned}
          </dd>
        </div>
        <div>
          <dt>Runs</dt>
          <dd>{summary.runs}</dd>
        </div>
        <div>
          <dt>Models</dt>
          <dd>{summary.models.join(', ') || '—'}</dd>
        </div>
        {summary.hankSource && (
          <div class="wide">
            <dt>Hank</dt>
            <dd
              class="mono"
              data-testid="execution-hank-source"
              data-kind={summary.hankSource.kind}
            >
              {describeHankSource(summary.hankSource)}
            </dd>
          </div>
        )}
        <div class="wide">
          <dt>Data</dt>
          <dd class="mono">{summary.dataPath ?? '—'}</dd>
        </div>
        <div class="wide">
          <dt>Directory</dt>
          <dd class="mono">{summary.dir}</dd>
        </div>
        {props.detail.live !== undefined && (
          <div>
            <dt>Runtime</dt>
            <dd class="mono">pid {props.detail.live.pid}</dd>
          </div>
        )}
        {summary.fleet && (
          <div class="wide">
            <dt>Fleet</dt>
            <dd data-testid="execution-fleet" data-files={String(summary.fleet.files)}>
              <FleetNote fleet={summary.fleet} />
            </dd>
          </div>
        )}
      </dl>
      {props.write && summary.fleet?.files !== false && (
        <Actions detail={props.detail} live={props.live} flow={props.flow} />
      )}
    </header>
  );
}

/**
 * Where the hank came from, in one line: its path; `<url>#<ref>:<subdir> @ <commit>`; or
 * `<bundle> (sha256 <hash>…)`. Preact escapes the text (a URL is untrusted).
 */
function describeHankSource(source: NonNullable<ExecutionSummary['hankSource']>): string {
  switch (source.kind) {
    case 'git': {
      const ref = source.ref !== undefined ? `#${source.ref}` : '';
      const subdir =
        source.subdir !== undefined ? `${ref === '' ? '#:' : ':'}${source.subdir}` : '';
      return `${source.url}${ref}${subdir} @ ${source.commit.slice(0, 12)}`;
    }
    case 'bundle':
      return `${source.path} (sha256 ${source.bundleHash.slice(0, 16)}…)`;
    default:
      return source.path;
  }
}
