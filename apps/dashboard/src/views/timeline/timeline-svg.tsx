/**
 * The Gantt drawing: one `<svg>` with a plain `<rect>` per codon execution and no per-bar
 * components or state, so 1,000 bars render once and a hover does not re-render them (the parent
 * keeps this vnode in `useMemo`, which Preact skips when diffing; hover and tooltip live outside).
 */
import { pages } from '../../api/paths.js';
import type { CodonBar } from '../../api/types.js';
import { displayStatus } from '../../format/display-status.js';
import { formatDuration } from '../../format/format.js';
import type { Tick, TimeScale } from './time-scale.js';
import type { IterationSpan, MergeMarker, PlacedBar, TimelineRow } from './timeline-rows.js';

export const ROW_HEIGHT = 22;
/** Tick labels on the first line of the axis band, run markers on the second. */
export const AXIS_HEIGHT = 34;
const BAR_HEIGHT = 14;
const BAR_INSET = (ROW_HEIGHT - BAR_HEIGHT) / 2;
/** Half the diagonal of a merge marker's diamond. */
const MERGE_RADIUS = 6;

/** The diamond of a merge marker centred on (x, y). */
export const diamondPath = (x: number, y: number, r = MERGE_RADIUS): string =>
  `M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}Z`;

export interface TimelineDrawing {
  rows: TimelineRow[];
  bars: CodonBar[];
  placed: PlacedBar[];
  iterations: IterationSpan[];
  /** Parallel blocks' merges, markers on their block's header row (absent: none). */
  merges?: MergeMarker[];
  ticks: Tick[];
  scale: TimeScale;
  runMarkers: { runId: string; x: number; label: string }[];
  width: number;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
function clockLabel(tick: Tick): string {
  const d = new Date(tick.t);
  const hm = `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
  return tick.withSeconds ? `${hm}:${pad2(d.getSeconds())}` : hm;
}

const ACTIVE = new Set([
  'preparing',
  'starting',
  'initializing',
  'running',
  'completing-sentinels',
]);

function barClass(bar: CodonBar, placed: PlacedBar): string {
  let name = `bar status-${displayStatus(bar)}`;
  if (ACTIVE.has(bar.status) || placed.running) name += ' active';
  if (bar.attempt > 1) name += ' retry';
  if (bar.extensions > 0) name += ' extended';
  return name;
}

export function TimelineSvg({
  drawing,
  executionId,
}: {
  drawing: TimelineDrawing;
  executionId: string;
}) {
  const height = AXIS_HEIGHT + drawing.rows.length * ROW_HEIGHT;
  return (
    <svg
      class="timeline-svg"
      width={drawing.width}
      height={height}
      viewBox={`0 0 ${drawing.width} ${height}`}
      role="img"
      aria-label={`Timeline of ${drawing.bars.length} codon executions`}
    >
      <g class="rows">
        {drawing.rows.map((row, index) => (
          <rect
            key={row.key}
            class={index % 2 === 0 ? 'row-even' : 'row-odd'}
            x={0}
            y={AXIS_HEIGHT + index * ROW_HEIGHT}
            width={drawing.width}
            height={ROW_HEIGHT}
          />
        ))}
      </g>
      <g class="axis">
        {drawing.ticks.map((tick) => (
          <g key={tick.t}>
            <line x1={tick.x} x2={tick.x} y1={4} y2={height} />
            <text x={tick.x + 3} y={13}>
              {clockLabel(tick)}
            </text>
          </g>
        ))}
        {drawing.scale.pieces
          .filter((piece) => piece.collapsed)
          .map((piece) => (
            <g key={`gap-${piece.start}`} class="gap">
              <rect x={piece.x0} y={0} width={piece.x1 - piece.x0} height={height} />
              <title>{`${formatDuration(piece.end - piece.start)} without codons (not to scale)`}</title>
            </g>
          ))}
      </g>
      <g class="runs">
        {drawing.runMarkers.map((marker) => (
          <g key={marker.runId}>
            <line x1={marker.x} x2={marker.x} y1={18} y2={height} />
            <text x={marker.x + 3} y={28}>
              {marker.label}
            </text>
          </g>
        ))}
      </g>
      <g class="iterations">
        {drawing.iterations.map((span) => (
          <g key={`${span.runId}-${span.loopId}-${span.iteration}`}>
            <rect
              class={`iteration ${span.iteration % 2 === 0 ? 'even' : 'odd'}`}
              x={span.x}
              y={AXIS_HEIGHT + span.row * ROW_HEIGHT + BAR_INSET}
              width={span.width}
              height={BAR_HEIGHT}
              data-testid="loop-iteration"
              data-loop-id={span.loopId}
              data-run-id={span.runId}
              data-iteration={span.iteration}
            />
            {span.width > 22 && (
              <text
                class="iteration-label"
                x={span.x + 3}
                y={AXIS_HEIGHT + span.row * ROW_HEIGHT + ROW_HEIGHT / 2 + 4}
              >
                #{span.iteration}
              </text>
            )}
          </g>
        ))}
      </g>
      <g class="bars">
        {drawing.placed.map((placed) => {
          const bar = drawing.bars[placed.index] as CodonBar;
          const y = AXIS_HEIGHT + placed.row * ROW_HEIGHT + BAR_INSET;
          return (
            <a key={bar.key} href={pages.codon(executionId, bar.key)} data-index={placed.index}>
              <rect
                class={barClass(bar, placed)}
                x={placed.x}
                y={y}
                width={placed.width}
                height={BAR_HEIGHT}
                rx={2}
                data-testid="codon-bar"
                data-key={bar.key}
                data-status={displayStatus(bar)}
                data-index={placed.index}
              />
              {bar.extensions > 0 && placed.width > 26 && (
                <text class="bar-note" x={placed.x + placed.width - 3} y={y + BAR_HEIGHT - 3}>
                  +{bar.extensions}
                </text>
              )}
            </a>
          );
        })}
      </g>
      <g class="merges">
        {(drawing.merges ?? []).map((merge) => {
          const bar = drawing.bars[merge.index] as CodonBar;
          const y = AXIS_HEIGHT + merge.row * ROW_HEIGHT + ROW_HEIGHT / 2;
          return (
            <a key={bar.key} href={pages.codon(executionId, bar.key)} data-index={merge.index}>
              <line
                class="merge-line"
                x1={merge.x}
                x2={merge.x}
                y1={y}
                y2={AXIS_HEIGHT + (merge.row + 1 + merge.lanes) * ROW_HEIGHT}
              />
              <path
                class={`merge bar status-${displayStatus(bar)}`}
                d={diamondPath(merge.x, y)}
                data-testid="merge-marker"
                data-key={bar.key}
                data-block-id={bar.parallel?.blockId}
                data-status={displayStatus(bar)}
                data-index={merge.index}
              />
            </a>
          );
        })}
      </g>
    </svg>
  );
}
