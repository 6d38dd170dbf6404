/**
 * The Gantt's rows: one per codon id, in order of first start; a loop's codons sit under a loop
 * header row, every iteration of a loop codon on the same row (runtime ids `review#0`, `review#1`
 * share the row `review`). Retries and rollback re-runs of a codon land on its row too, so a row
 * reads as that codon's history.
 *
 * A parallel block (issue 36) is a header row `parallel <block>` with one lane per branch under
 * it: every codon of a branch (loop iterations included) on the branch's row, so the branches
 * read side by side in time; the resolver has a row of its own, and the block's merge is a
 * marker on the header row, where the branches were joined.
 */
import type { CodonBar } from '../../api/types.js';
import type { TimeScale } from './time-scale.js';

export interface TimelineRow {
  kind: 'loop' | 'codon' | 'block' | 'branch';
  /**
   * Unique among rows: `loop:<loopId>`, `codon:<base codon id>`, `block:<blockId>`,
   * `branch:<blockId>/<branchId>` or `resolver:<blockId>/<codon id>`.
   */
  key: string;
  label: string;
  /** The plan codon id without the loop iteration suffix (codon rows). */
  codonId?: string;
  loopId?: string;
  /** A parallel block's header, branch lane or resolver row: the block. */
  blockId?: string;
  /** A branch lane: its branch. */
  branchId?: string;
  /** Codon rows inside a loop are indented under it. */
  nested: boolean;
  /** Indexes into the bars array, in start order (a block header: its merge records). */
  barIndexes: number[];
}

interface BlockRows {
  header: TimelineRow;
  /** Branch lanes and resolver rows, in order of first start. */
  children: TimelineRow[];
  byKey: Map<string, TimelineRow>;
}

/** The rows of one parallel block: its header, then a lane per branch and the resolver's row. */
function blockRowOf(blocks: Map<string, BlockRows>, blockId: string): BlockRows {
  let block = blocks.get(blockId);
  if (block === undefined) {
    block = {
      header: {
        kind: 'block',
        key: `block:${blockId}`,
        label: `parallel ${blockId}`,
        blockId,
        nested: false,
        barIndexes: [],
      },
      children: [],
      byKey: new Map(),
    };
    blocks.set(blockId, block);
  }
  return block;
}

/**
 * A block's lanes in the plan's branch order (branches the plan does not list keep their order
 * of first start, after those it does), the resolver's rows after every branch.
 */
function inPlanOrder(
  children: readonly TimelineRow[],
  blocks: readonly { blockId: string; branches: readonly string[] }[],
): TimelineRow[] {
  const order = blocks.find((block) => block.blockId === children[0]?.blockId)?.branches ?? [];
  const rank = (row: TimelineRow): number => {
    if (row.kind !== 'branch') return Number.MAX_SAFE_INTEGER;
    const at = order.indexOf(row.branchId ?? '');
    return at === -1 ? order.length : at;
  };
  // Array.prototype.sort is stable: equal ranks keep their order of first start.
  return [...children].sort((a, b) => rank(a) - rank(b));
}

/** Puts a bar of a parallel block on its row: a merge on the header, others on their lane. */
function placeInBlock(
  block: BlockRows,
  bar: CodonBar,
  parallel: NonNullable<CodonBar['parallel']>,
  index: number,
): void {
  if (parallel.role === 'merge') {
    block.header.barIndexes.push(index);
    return;
  }
  const codonId = baseCodonId(bar);
  const key =
    parallel.role === 'branch'
      ? `branch:${parallel.blockId}/${parallel.branchId ?? ''}`
      : `resolver:${parallel.blockId}/${codonId}`;
  let row = block.byKey.get(key);
  if (row === undefined) {
    row =
      parallel.role === 'branch'
        ? {
            kind: 'branch',
            key,
            label: `branch ${parallel.branchId ?? '?'}`,
            blockId: parallel.blockId,
            ...(parallel.branchId === undefined ? {} : { branchId: parallel.branchId }),
            nested: true,
            barIndexes: [],
          }
        : {
            kind: 'codon',
            key,
            label: `${bar.name || codonId} (resolver)`,
            codonId,
            blockId: parallel.blockId,
            nested: true,
            barIndexes: [],
          };
    block.byKey.set(key, row);
    block.children.push(row);
  }
  row.barIndexes.push(index);
}

/** `review#3` → `review` for loop iterations; other ids are kept whole. */
export const baseCodonId = (bar: Pick<CodonBar, 'codonId' | 'loop'>): string =>
  bar.loop === undefined ? bar.codonId : bar.codonId.replace(/#\d+$/, '');

export const parseTime = (iso: string | undefined, fallback: number): number => {
  if (iso === undefined) return fallback;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? fallback : t;
};

export function timelineRows(
  bars: readonly CodonBar[],
  loops: readonly { loopId: string; iterations: number }[] = [],
  /** The plan's blocks: their branch lanes go in this order (else in order of first start). */
  blocks: readonly { blockId: string; branches: readonly string[] }[] = [],
): TimelineRow[] {
  const order = bars
    .map((bar, index) => ({ index, t: parseTime(bar.startTime, Number.POSITIVE_INFINITY) }))
    .sort((a, b) => a.t - b.t || a.index - b.index);

  const iterationsOf = new Map(loops.map((loop) => [loop.loopId, loop.iterations]));
  const rows: TimelineRow[] = [];
  const codonRows = new Map<string, TimelineRow>();
  const loopRows = new Map<string, { header: TimelineRow; children: TimelineRow[] }>();
  const blockRows = new Map<string, BlockRows>();
  // Top-level entries in order of first start: a codon row, a loop with its children, or a
  // parallel block with its lanes.
  const topLevel: (TimelineRow | { loopId: string } | { blockId: string })[] = [];

  for (const { index } of order) {
    const bar = bars[index] as CodonBar;
    if (bar.parallel !== undefined) {
      if (!blockRows.has(bar.parallel.blockId)) topLevel.push({ blockId: bar.parallel.blockId });
      placeInBlock(blockRowOf(blockRows, bar.parallel.blockId), bar, bar.parallel, index);
      continue;
    }
    const codonId = baseCodonId(bar);
    const loopId = bar.loop?.loopId;
    const rowKey = loopId === undefined ? `codon:${codonId}` : `codon:${loopId}/${codonId}`;
    let row = codonRows.get(rowKey);
    if (row === undefined) {
      row = {
        kind: 'codon',
        key: rowKey,
        label: bar.name || codonId,
        codonId,
        loopId,
        nested: loopId !== undefined,
        barIndexes: [],
      };
      codonRows.set(rowKey, row);
      if (loopId === undefined) topLevel.push(row);
      else {
        let loop = loopRows.get(loopId);
        if (loop === undefined) {
          const planned = iterationsOf.get(loopId);
          loop = {
            header: {
              kind: 'loop',
              key: `loop:${loopId}`,
              label: `loop ${loopId}${planned === undefined ? '' : ` · ${planned} iterations`}`,
              loopId,
              nested: false,
              barIndexes: [],
            },
            children: [],
          };
          loopRows.set(loopId, loop);
          topLevel.push({ loopId });
        }
        loop.children.push(row);
      }
    }
    row.barIndexes.push(index);
    if (loopId !== undefined) loopRows.get(loopId)?.header.barIndexes.push(index);
  }

  for (const entry of topLevel) {
    if ('kind' in entry) rows.push(entry);
    else if ('blockId' in entry) {
      const block = blockRows.get(entry.blockId);
      if (block !== undefined) rows.push(block.header, ...inPlanOrder(block.children, blocks));
    } else {
      const loop = loopRows.get(entry.loopId);
      if (loop !== undefined) rows.push(loop.header, ...loop.children);
    }
  }
  return rows;
}

export interface PlacedBar {
  index: number;
  row: number;
  x: number;
  width: number;
  running: boolean;
}

/** Iteration spans drawn on a loop's header row. */
export interface IterationSpan {
  row: number;
  loopId: string;
  runId: string;
  iteration: number;
  x: number;
  width: number;
}

/** A parallel block's merge, drawn as a marker on the block's header row where it ended. */
export interface MergeMarker {
  index: number;
  row: number;
  x: number;
  /** How many lane rows of the block follow its header (the marker's line crosses them). */
  lanes: number;
}

/** Bars narrower than this are widened so they stay visible and clickable. */
export const MIN_BAR_PX = 2;

/** Every bar and loop iteration in pixels. `now` ends the bars that are still running. */
export function placeBars(
  rows: readonly TimelineRow[],
  bars: readonly CodonBar[],
  scale: TimeScale,
  now: number,
): { bars: PlacedBar[]; iterations: IterationSpan[]; merges: MergeMarker[] } {
  const placed: PlacedBar[] = [];
  const iterations: IterationSpan[] = [];
  const merges: MergeMarker[] = [];
  rows.forEach((row, rowIndex) => {
    if (row.kind === 'block') {
      // A merge runs no agent: a point in time (its end, or its start while it is recorded).
      let lanes = 0;
      while (
        rows[rowIndex + 1 + lanes]?.nested &&
        rows[rowIndex + 1 + lanes]?.blockId === row.blockId
      )
        lanes++;
      for (const index of row.barIndexes) {
        const bar = bars[index] as CodonBar;
        const at = parseTime(bar.endTime ?? bar.startTime, now);
        merges.push({ index, row: rowIndex, x: scale.toX(at), lanes });
      }
      return;
    }
    if (row.kind === 'loop') {
      // One span per iteration of each run: a rollback re-runs iterations, and their spans
      // must not stretch across the runs in between.
      const spans = new Map<
        string,
        { runId: string; iteration: number; start: number; end: number }
      >();
      for (const index of row.barIndexes) {
        const bar = bars[index] as CodonBar;
        const iteration = bar.loop?.iteration ?? 0;
        const start = parseTime(bar.startTime, now);
        const end = parseTime(bar.endTime, now);
        const key = `${bar.runId}#${iteration}`;
        const span = spans.get(key);
        spans.set(key, {
          runId: bar.runId,
          iteration,
          start: Math.min(span?.start ?? start, start),
          end: Math.max(span?.end ?? end, end),
        });
      }
      for (const span of [...spans.values()].sort((a, b) => a.start - b.start)) {
        const x = scale.toX(span.start);
        iterations.push({
          row: rowIndex,
          loopId: row.loopId ?? '',
          runId: span.runId,
          iteration: span.iteration,
          x,
          width: Math.max(MIN_BAR_PX, scale.toX(span.end) - x),
        });
      }
      return;
    }
    for (const index of row.barIndexes) {
      const bar = bars[index] as CodonBar;
      const start = parseTime(bar.startTime, now);
      const end = parseTime(bar.endTime, now);
      const x = scale.toX(start);
      placed.push({
        index,
        row: rowIndex,
        x,
        width: Math.max(MIN_BAR_PX, scale.toX(end) - x),
        running: bar.endTime === undefined,
      });
    }
  });
  return { bars: placed, iterations, merges };
}

/** The busy intervals of all bars, for the time scale. */
export function barIntervals(bars: readonly CodonBar[], now: number): [number, number][] {
  return bars.map((bar) => [parseTime(bar.startTime, now), parseTime(bar.endTime, now)]);
}

/** Where each run starts on the axis (vertical markers), first run excluded. */
export function runStarts(bars: readonly CodonBar[]): { runId: string; start: number }[] {
  const starts = new Map<string, number>();
  for (const bar of bars) {
    const t = parseTime(bar.startTime, Number.POSITIVE_INFINITY);
    const known = starts.get(bar.runId);
    if (known === undefined || t < known) starts.set(bar.runId, t);
  }
  return [...starts]
    .map(([runId, start]) => ({ runId, start }))
    .filter(({ start }) => Number.isFinite(start))
    .sort((a, b) => a.start - b.start)
    .slice(1);
}
