/**
 * The codon timeline: row labels, the memoised SVG drawing, zoom, and one tooltip that follows
 * the pointer. Clicking a bar opens its codon view.
 */

import { useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { pages } from '../../api/paths.js';
import type { CodonBar, ExecutionDetail } from '../../api/types.js';
import { codonLabel } from '../../format/codon-label.js';
import { displayStatus } from '../../format/display-status.js';
import { durationBetween, formatDuration, formatTokens, formatUsd } from '../../format/format.js';
import { useElementWidth } from '../../hooks/use-element-width.js';
import { useNow } from '../../hooks/use-now.js';
import { runNumbers } from '../execution/run-numbers.js';
import { buildTimeScale, timeTicks } from './time-scale.js';
import {
  barIntervals,
  placeBars,
  runStarts,
  type TimelineRow,
  timelineRows,
} from './timeline-rows.js';
import { type TimelineDrawing, TimelineSvg } from './timeline-svg.js';

const ZOOMS = [1, 2, 4, 8, 16, 32];
const LEGEND = ['completed', 'failed', 'interrupted', 'skipped', 'running'];
/** What the browser tests find each kind of row label by. */
const ROW_TEST_IDS: Record<TimelineRow['kind'], string> = {
  codon: 'timeline-row',
  loop: 'loop-group',
  block: 'parallel-group',
  branch: 'branch-lane',
};

/** Where a bar sits in a parallel block, for its tooltip. */
function parallelPlace(parallel: NonNullable<CodonBar['parallel']>): string {
  if (parallel.role === 'merge') return `merge of parallel ${parallel.blockId}`;
  if (parallel.role === 'resolver') return `resolver of parallel ${parallel.blockId}`;
  return `branch ${parallel.branchId ?? '?'} of parallel ${parallel.blockId}`;
}

function Tooltip({ bar, now }: { bar: CodonBar; now: number }) {
  return (
    <>
      <strong>{codonLabel(bar.name, bar.codonId)}</strong>
      <span class="mono muted">{bar.codonId}</span>
      <span>
        <span class={`status status-${displayStatus(bar)}`}>{displayStatus(bar)}</span>
        {bar.attempt > 1 && <span> · attempt {bar.attempt}</span>}
        {bar.extensions > 0 && <span> · {bar.extensions} extension(s)</span>}
        {bar.loop !== undefined && <span> · iteration {bar.loop.iteration}</span>}
      </span>
      {bar.parallel !== undefined && <span class="muted">{parallelPlace(bar.parallel)}</span>}
      <span>
        {formatDuration(durationBetween(bar.startTime, bar.endTime, now))} ·{' '}
        {formatUsd(bar.costUsd)} · {formatTokens(bar.tokens.input + bar.tokens.output)} tokens
      </span>
      {bar.model !== undefined && <span class="muted">{bar.model}</span>}
      {bar.failure !== undefined && <span class="text-failed">{bar.failure.message}</span>}
      {bar.skipReason !== undefined && <span class="muted">{bar.skipReason}</span>}
    </>
  );
}

export function Timeline({
  executionId,
  detail,
}: {
  executionId: string;
  detail: ExecutionDetail;
}) {
  const { route } = useLocation();
  const scroller = useRef<HTMLDivElement>(null);
  const tooltip = useRef<HTMLDivElement>(null);
  const viewport = useElementWidth(scroller);
  const [zoom, setZoom] = useState(1);
  const [hovered, setHovered] = useState<number>();
  const { bars, loops, blocks } = detail;
  const running = bars.some((bar) => bar.endTime === undefined);
  // Running bars grow with the clock; finished executions never re-render on a timer.
  const now = useNow(running ? 2000 : null);

  const rows = useMemo(() => timelineRows(bars, loops, blocks), [bars, loops, blocks]);
  const numbers = useMemo(() => runNumbers(detail.runTree), [detail.runTree]);
  const drawing = useMemo((): TimelineDrawing | undefined => {
    if (viewport === 0) return undefined;
    const width = Math.max(200, viewport * zoom - 2);
    const scale = buildTimeScale(barIntervals(bars, now), width);
    const { bars: placed, iterations, merges } = placeBars(rows, bars, scale, now);
    const runMarkers = runStarts(bars).map(({ runId, start }) => ({
      runId,
      x: scale.toX(start),
      label: `run ${numbers.get(runId) ?? '?'}`,
    }));
    return {
      rows,
      bars,
      placed,
      iterations,
      merges,
      ticks: timeTicks(scale),
      scale,
      runMarkers,
      width,
    };
  }, [rows, bars, numbers, viewport, zoom, now]);
  const svg = useMemo(
    () =>
      drawing === undefined ? null : <TimelineSvg drawing={drawing} executionId={executionId} />,
    [drawing, executionId],
  );

  const indexOf = (target: EventTarget | null): number | undefined => {
    const holder = (target as Element | null)?.closest?.('[data-index]');
    const value = holder?.getAttribute('data-index');
    return value === null || value === undefined ? undefined : Number(value);
  };

  const hoveredBar = hovered === undefined ? undefined : bars[hovered];
  return (
    <div class="timeline" data-testid="timeline" data-bars={String(bars.length)}>
      <div class="toolbar">
        <span class="legend">
          {LEGEND.map((status) => (
            <span key={status} class="legend-item">
              <span class={`swatch status-${status}`} />
              {status}
            </span>
          ))}
          <span class="legend-item">
            <span class="swatch retry" /> retry
          </span>
          <span class="legend-item">+n extensions</span>
          {bars.some((bar) => bar.parallel?.role === 'merge') && (
            <span class="legend-item">◆ merge</span>
          )}
        </span>
        <span class="spacer" />
        <span class="muted">
          {bars.length} codon execution{bars.length === 1 ? '' : 's'}
        </span>
        <span class="zoom">
          <button
            type="button"
            data-testid="zoom-out"
            aria-label="Zoom out"
            disabled={zoom === ZOOMS[0]}
            onClick={() => setZoom(ZOOMS[Math.max(0, ZOOMS.indexOf(zoom) - 1)] ?? 1)}
          >
            −
          </button>
          <span class="num">{zoom}×</span>
          <button
            type="button"
            data-testid="zoom-in"
            aria-label="Zoom in"
            disabled={zoom === ZOOMS.at(-1)}
            onClick={() => setZoom(ZOOMS[Math.min(ZOOMS.length - 1, ZOOMS.indexOf(zoom) + 1)] ?? 1)}
          >
            +
          </button>
        </span>
      </div>
      <div class="timeline-body">
        <div class="timeline-labels">
          <div class="timeline-axis-spacer" />
          {rows.map((row) => (
            <div
              key={row.key}
              class={`timeline-label ${row.kind}${row.nested ? ' nested' : ''}`}
              data-testid={ROW_TEST_IDS[row.kind]}
              data-codon-id={row.codonId}
              data-loop-id={row.loopId}
              data-block-id={row.blockId}
              data-branch-id={row.branchId}
              title={row.codonId ?? row.loopId ?? row.label}
            >
              {row.label}
            </div>
          ))}
        </div>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: delegation; the bars are SVG <a> links, so keyboard Enter on a focused bar fires this click too */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: as above, the focusable targets are the links inside */}
        <div
          class="timeline-scroll"
          ref={scroller}
          onMouseMove={(event) => {
            const index = indexOf(event.target);
            if (index !== hovered) setHovered(index);
            const tip = tooltip.current;
            if (tip !== null) {
              // Positioned from JS (CSSOM), which the CSP allows; style attributes it would not.
              // Kept inside the window: flipped to the other side of the pointer near an edge.
              const right = event.clientX + 14 + tip.offsetWidth > window.innerWidth - 8;
              const below = event.clientY + 14 + tip.offsetHeight > window.innerHeight - 8;
              tip.style.left = `${right ? event.clientX - 14 - tip.offsetWidth : event.clientX + 14}px`;
              tip.style.top = `${below ? event.clientY - 14 - tip.offsetHeight : event.clientY + 14}px`;
            }
          }}
          onMouseLeave={() => setHovered(undefined)}
          onClick={(event) => {
            const index = indexOf(event.target);
            const bar = index === undefined ? undefined : bars[index];
            if (bar === undefined || event.ctrlKey || event.metaKey || event.shiftKey) return;
            event.preventDefault();
            route(pages.codon(executionId, bar.key));
          }}
        >
          {svg}
        </div>
      </div>
      <div
        ref={tooltip}
        class={`timeline-tooltip${hoveredBar === undefined ? ' hidden' : ''}`}
        data-testid="timeline-tooltip"
        role="tooltip"
      >
        {hoveredBar !== undefined && <Tooltip bar={hoveredBar} now={now} />}
      </div>
    </div>
  );
}
