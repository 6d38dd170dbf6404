import type { CodonRow } from './codon-rows.js';
import {
  elapsedMs,
  fit,
  formatCost,
  formatCount,
  formatDuration,
  oneLine,
  truncate,
} from './format.js';
import type { Style } from './terminal.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The status symbol of a row, coloured; active rows spin when given a frame number. */
export function statusSymbol(row: CodonRow, style: Style, frame?: number): string {
  switch (row.status) {
    case 'completed':
      return style.green('✓');
    case 'failed':
      return row.interrupted ? style.yellow('■') : style.red('✗');
    case 'skipped':
      return style.yellow('↷');
    case 'pending':
      return style.dim('·');
    default:
      return style.cyan(frame === undefined ? '•' : (SPINNER[frame % SPINNER.length] as string));
  }
}

export interface RowLayout {
  idWidth: number;
  nameWidth: number;
  /** The lane column (`review/left`): 0 when no row is in a parallel block. */
  laneWidth?: number;
}

/** Column widths that fit every row (capped so the activity column keeps some room). */
export function rowLayout(rows: readonly CodonRow[]): RowLayout {
  const longest = (pick: (row: CodonRow) => string) =>
    rows.reduce((max, row) => Math.max(max, Array.from(pick(row)).length), 0);
  return {
    idWidth: Math.min(
      24,
      Math.max(
        6,
        longest((row) => row.codonId),
      ),
    ),
    nameWidth: Math.min(
      28,
      Math.max(
        6,
        longest((row) => row.name),
      ),
    ),
    laneWidth: rows.some((row) => row.lane)
      ? Math.min(
          24,
          longest((row) => row.lane ?? ''),
        )
      : 0,
  };
}

export interface RowOptions {
  layout: RowLayout;
  /** Total width of the line; the activity is cut to fit (no wrapping: the live view counts lines). */
  columns: number;
  /** What the codon is doing now (tool call, rig output); default: its status or failure. */
  activity?: string | undefined;
  frame?: number;
  now?: number;
}

/**
 * One line per codon: symbol, lane (when the plan has a parallel block: `review/left`, blank
 * outside blocks), id, name, elapsed, tokens, cost, activity.
 */
export function formatRow(row: CodonRow, style: Style, options: RowOptions): string {
  const { layout } = options;
  const elapsed =
    row.status === 'pending'
      ? ''
      : formatDuration(elapsedMs(row.startTime, row.endTime, options.now) ?? 0);
  // A parallel block's merge runs no agent: no tokens to show.
  const tokens =
    row.tokens && row.parallel?.role !== 'merge'
      ? `${formatCount(row.tokens.inputTokens)} in ${formatCount(row.tokens.outputTokens)} out`
      : '';
  const cost = row.status === 'pending' ? '' : formatCost(row.cost);
  const lane = layout.laneWidth ? `${fit(row.lane ?? '', layout.laneWidth)}  ` : '';
  const main = `${lane}${fit(row.codonId, layout.idWidth)}  ${fit(row.name, layout.nameWidth)}  ${elapsed.padStart(7)}  ${fit(tokens, 16)} ${cost.padStart(8)}`;
  const activity = oneLine(options.activity ?? defaultActivity(row));
  const room = options.columns - 2 - Array.from(main).length - 2;
  const tail = activity && room > 3 ? `  ${truncate(activity, room)}` : '';
  const text = truncate(main, Math.max(0, options.columns - 2));
  const colouredTail =
    row.status === 'failed'
      ? row.interrupted
        ? style.yellow(tail)
        : style.red(tail)
      : style.dim(tail);
  return `${statusSymbol(row, style, options.frame)} ${row.status === 'pending' ? style.dim(text) : text}${tail ? colouredTail : ''}`;
}

function defaultActivity(row: CodonRow): string {
  if (row.interrupted) return (row.failure ?? 'Interrupted').replace(/^Interrupted/, 'interrupted');
  if (row.status === 'failed') return row.failure ? `failed: ${row.failure}` : 'failed';
  if (row.status === 'completed' || row.status === 'pending') return '';
  if (row.status === 'skipped' && row.skipReason) return `skipped: ${row.skipReason}`;
  return row.status;
}
