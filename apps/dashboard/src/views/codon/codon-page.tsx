/**
 * `/executions/:id/codons/:key`: one codon execution — its prompt, what the agent did, tokens and
 * cost over time, the files it changed (each a link to the diff) and its sentinels' outputs.
 */
import { pages } from '../../api/paths.js';
import { routes } from '../../api/routes.js';
import type { CodonBar, RunNode } from '../../api/types.js';
import { ErrorPanel, Loading } from '../../components/feedback.js';
import { Duration, StatusBadge, Usd } from '../../components/values.js';
import { codonLabel } from '../../format/codon-label.js';
import { displayStatus } from '../../format/display-status.js';
import { durationBetween, formatDateTime, formatTokens, shortSha } from '../../format/format.js';
import { useApi } from '../../hooks/use-api.js';
import { useTitle } from '../../hooks/use-title.js';
import { normalizeCheckpoints } from '../checkpoints/checkpoint-picks.js';
import { CodonEvents } from './codon-events.js';
import { codonDiffRange } from './diff-range.js';
import { UsageChart } from './usage-chart.js';

function findRun(runs: readonly RunNode[], runId: string): RunNode | undefined {
  for (const run of runs) {
    if (run.runId === runId) return run;
    const found = findRun(run.children, runId);
    if (found !== undefined) return found;
  }
  return undefined;
}

function SentinelContent({ content }: { content: unknown }) {
  return <pre>{typeof content === 'string' ? content : JSON.stringify(content, null, 2)}</pre>;
}

/** Links to the codons of the execution, by id (each opens its newest attempt). */
function CodonLinks({ id, bars }: { id: string; bars: readonly CodonBar[] }) {
  const ids = [...new Set(bars.map((bar) => bar.codonId))];
  if (ids.length === 0) return null;
  return (
    <p data-testid="codon-links">
      Codons of this execution:{' '}
      {ids.map((codonId, index) => (
        <span key={codonId}>
          {index > 0 && ', '}
          <a class="mono" href={pages.codon(id, codonId)} data-testid="codon-link">
            {codonId}
          </a>
        </span>
      ))}
    </p>
  );
}

export default function CodonPage({ id, codonKey }: { id: string; codonKey: string }) {
  const codon = useApi(routes.codon, { id, key: codonKey });
  const checkpoints = useApi(routes.checkpoints, { id });
  const execution = useApi(routes.execution, { id });
  useTitle(codon.data ? codonLabel(codon.data.bar.name, codon.data.bar.codonId) : undefined);

  const back = (
    <nav class="crumbs">
      <a href={pages.execution(id)} data-testid="back-to-execution">
        ← {execution.data?.summary.hankName ?? id}
      </a>
    </nav>
  );
  if (codon.error !== undefined)
    return (
      <section class="page codon-page">
        {back}
        <ErrorPanel error={codon.error} onRetry={codon.reload} />
        {execution.data !== undefined && <CodonLinks id={id} bars={execution.data.bars} />}
      </section>
    );
  if (codon.data === undefined) return <Loading what="codon" />;
  const { bar, prompt, usage, files, sentinels } = codon.data;
  const runStart =
    execution.data === undefined
      ? undefined
      : findRun(execution.data.runTree, bar.runId)?.from?.checkpointSha;
  const range =
    codon.data.diffRange ?? codonDiffRange(bar, normalizeCheckpoints(checkpoints.data), runStart);

  // Every attempt of this codon id (retries, re-runs after a rollback), oldest first.
  const attempts = (execution.data?.bars ?? []).filter((other) => other.codonId === bar.codonId);
  return (
    <section class="page codon-page">
      {back}
      <header class="panel" data-testid="codon-header" data-key={bar.key}>
        <div class="title-line">
          <h2 data-testid="codon-title">{codonLabel(bar.name, bar.codonId)}</h2>
          <span class="mono muted">{bar.codonId}</span>
          <StatusBadge status={displayStatus(bar)} testId="codon-status" />
          {bar.attempt > 1 && <span class="tag">attempt {bar.attempt}</span>}
          {bar.extensions > 0 && <span class="tag">{bar.extensions} extension(s)</span>}
          {bar.loop !== undefined && (
            <span class="tag">
              loop {bar.loop.loopId} #{bar.loop.iteration}
            </span>
          )}
        </div>
        {attempts.length > 1 && (
          <p class="muted" data-testid="codon-attempts">
            {codonKey === bar.key ? 'Attempts' : `The newest of ${attempts.length} attempts`}:{' '}
            {attempts.map((attempt) => (
              <a
                key={attempt.key}
                class={`tag${attempt.key === bar.key ? ' current' : ''}`}
                href={pages.codon(id, attempt.key)}
                data-testid="codon-attempt"
                data-key={attempt.key}
              >
                {attempt.attempt} · {displayStatus(attempt)}
              </a>
            ))}
          </p>
        )}
        <dl class="facts">
          <div>
            <dt>Cost</dt>
            <dd>
              <Usd usd={bar.costUsd} testId="codon-cost" />
            </dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>
              <Duration ms={durationBetween(bar.startTime, bar.endTime)} testId="codon-duration" />
            </dd>
          </div>
          <div>
            <dt>Started</dt>
            <dd>{formatDateTime(bar.startTime)}</dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd
              data-testid="codon-tokens"
              data-input={bar.tokens.input}
              data-output={bar.tokens.output}
            >
              {formatTokens(bar.tokens.input)} in · {formatTokens(bar.tokens.output)} out ·{' '}
              {formatTokens(bar.tokens.cacheRead)} cache read
            </dd>
          </div>
          <div>
            <dt>Model</dt>
            <dd>{bar.model ?? '—'}</dd>
          </div>
          <div>
            <dt>Run</dt>
            <dd class="mono">{bar.runId}</dd>
          </div>
          <div class="wide">
            <dt>Checkpoints</dt>
            <dd>
              {bar.checkpoints.length === 0
                ? '—'
                : bar.checkpoints.map((checkpoint) => (
                    <a
                      key={checkpoint.sha}
                      class="mono tag"
                      href={pages.checkpoints(id, { to: checkpoint.sha })}
                    >
                      {checkpoint.type} {shortSha(checkpoint.sha)}
                    </a>
                  ))}
            </dd>
          </div>
        </dl>
        {bar.failure !== undefined && (
          <p class="panel error-panel" data-testid="codon-failure">
            <strong>{bar.failure.type ?? 'failure'}</strong>: {bar.failure.message}
          </p>
        )}
      </header>

      <details class="panel" open={prompt !== undefined && prompt.length < 4000}>
        <summary>
          <h3>Prompt</h3>
        </summary>
        {prompt === undefined ? (
          <p class="muted">No prompt recorded.</p>
        ) : (
          <pre class="prompt" data-testid="codon-prompt">
            {prompt}
          </pre>
        )}
      </details>

      <div class="two-columns">
        <section class="panel">
          <h3>Tokens and cost over time</h3>
          <UsageChart usage={usage} />
        </section>
        <section class="panel" data-testid="codon-files">
          <h3>Files changed</h3>
          {files.length === 0 && <p class="muted">No tracked file changed.</p>}
          <ul class="files">
            {files.map((file) => (
              <li
                key={file.path}
                data-testid="file-change"
                data-path={file.path}
                data-status={file.status}
              >
                <span class={`file-status ${file.status}`}>{file.status}</span>
                {range === undefined ? (
                  <span class="mono">{file.path}</span>
                ) : (
                  <a class="mono" href={pages.checkpoints(id, { ...range, file: file.path })}>
                    {file.path}
                  </a>
                )}
              </li>
            ))}
          </ul>
          {range !== undefined && files.length > 0 && (
            <a href={pages.checkpoints(id, range)} data-testid="codon-diff-link">
              Whole diff {shortSha(range.from)} → {shortSha(range.to)}
            </a>
          )}
        </section>
      </div>

      {sentinels.length > 0 && (
        <section class="panel" data-testid="codon-sentinels">
          <h3>Sentinel outputs</h3>
          <ol class="sentinels">
            {sentinels.map((output) => (
              <li
                key={`${output.sentinelId}-${output.t}`}
                data-testid="sentinel-output"
                data-sentinel-id={output.sentinelId}
              >
                <div class="run-line">
                  <strong>{output.sentinelId}</strong>
                  <span class="muted">{formatDateTime(output.t)}</span>
                  <span class="spacer" />
                  <Usd usd={output.costUsd} />
                </div>
                <SentinelContent content={output.content} />
              </li>
            ))}
          </ol>
        </section>
      )}

      <CodonEvents executionId={id} codonKey={bar.key} />
    </section>
  );
}
