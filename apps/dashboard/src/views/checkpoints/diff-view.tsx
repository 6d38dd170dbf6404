/**
 * The side-by-side diff between two checkpoints, one section per file: the "before" pane on the
 * left, "after" on the right, unchanged runs folded (click a fold to open it).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { routes } from '../../api/routes.js';
import type { DiffWire } from '../../api/types.js';
import { ErrorPanel, Loading } from '../../components/feedback.js';
import { shortSha } from '../../format/format.js';
import { useApi } from '../../hooks/use-api.js';
import { type DiffCell, type DiffRow, sideBySide } from './side-by-side.js';

/** Rows drawn per file before a "show all" (a 50,000-line file would stall the page). */
const ROW_LIMIT = 2000;

type File = DiffWire['files'][number];

function Line({ cell }: { cell: DiffCell | undefined }) {
  if (cell === undefined) return <div class="diff-line empty"> </div>;
  return (
    <div class={`diff-line ${cell.type}`}>
      <span class="no">{cell.no}</span>
      <span class="code">{cell.text}</span>
    </div>
  );
}

function Pane({
  rows,
  side,
  expanded,
  onExpand,
}: {
  rows: DiffRow[];
  side: 'before' | 'after';
  expanded: Set<number>;
  onExpand: (index: number) => void;
}) {
  const lines = [];
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as DiffRow;
    if (row.kind === 'collapsed') {
      if (expanded.has(index)) {
        for (const [k, hidden] of row.hidden.entries()) {
          if (hidden.kind !== 'collapsed')
            lines.push(
              <Line key={`${index}-${k}`} cell={side === 'before' ? hidden.left : hidden.right} />,
            );
        }
      } else {
        lines.push(
          <button
            key={index}
            type="button"
            class="diff-fold"
            data-testid={side === 'before' ? 'diff-collapsed' : undefined}
            data-count={row.count}
            onClick={() => onExpand(index)}
          >
            ⋯ {row.count} unchanged line{row.count === 1 ? '' : 's'}
          </button>,
        );
      }
    } else {
      lines.push(<Line key={index} cell={side === 'before' ? row.left : row.right} />);
    }
  }
  return (
    <div class="diff-pane mono" data-testid={`diff-pane-${side}`}>
      {lines}
    </div>
  );
}

function FileDiff({ file, focused }: { file: File; focused: boolean }) {
  const diff = useMemo(() => sideBySide(file.before, file.after), [file]);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const section = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (focused) section.current?.scrollIntoView({ block: 'start' });
  }, [focused]);
  const rows = showAll ? diff.rows : diff.rows.slice(0, ROW_LIMIT);
  const hasText = file.before !== undefined || file.after !== undefined;
  return (
    <details
      ref={section}
      class={`panel diff-file${focused ? ' focused' : ''}`}
      open
      data-testid="diff-file"
      data-path={file.path}
      data-status={file.status}
    >
      <summary>
        <span class={`file-status ${file.status}`}>{file.status}</span>
        <span class="mono">{file.path}</span>
        <span class="spacer" />
        <span class="text-added num">+{diff.added}</span>{' '}
        <span class="text-removed num">−{diff.removed}</span>
      </summary>
      {file.note !== undefined && (
        <p class="muted" data-testid="diff-note">
          {file.note}
        </p>
      )}
      {diff.gaveUp && (
        <p class="muted">Too many changes to align line by line: shown as replaced.</p>
      )}
      {hasText && (
        <div class="diff-body">
          <Pane
            rows={rows}
            side="before"
            expanded={expanded}
            onExpand={(i) => setExpanded(new Set(expanded).add(i))}
          />
          <Pane
            rows={rows}
            side="after"
            expanded={expanded}
            onExpand={(i) => setExpanded(new Set(expanded).add(i))}
          />
        </div>
      )}
      {rows.length < diff.rows.length && (
        <button type="button" onClick={() => setShowAll(true)}>
          Show all {diff.rows.length} rows
        </button>
      )}
    </details>
  );
}

export function DiffView({
  executionId,
  from,
  to,
  file,
}: {
  executionId: string;
  from: string;
  to: string;
  file?: string;
}) {
  const diff = useApi(routes.diff, { id: executionId, from, to });
  if (diff.error !== undefined) return <ErrorPanel error={diff.error} onRetry={diff.reload} />;
  if (diff.data === undefined) return <Loading what="diff" />;
  return (
    <section class="diff-view" data-testid="diff-view" data-from={from} data-to={to}>
      <h3>
        {shortSha(from)} → {shortSha(to)} · {diff.data.files.length} file
        {diff.data.files.length === 1 ? '' : 's'} changed
      </h3>
      {diff.data.files.length === 0 && (
        <p class="muted">The two checkpoints hold the same tracked files.</p>
      )}
      {diff.data.files.map((changed) => (
        <FileDiff key={changed.path} file={changed} focused={changed.path === file} />
      ))}
    </section>
  );
}
