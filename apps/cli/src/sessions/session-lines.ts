import { homedir } from 'node:os';
import type { SessionSummary } from '@hankweave/runtime';
import { commandHint } from '../output/command-hint.js';
import { dateTime, formatCost, formatDuration } from '../output/format.js';
import type { Style } from '../output/terminal.js';

/** The sessions in display order: each pipeline followed by its loops (indented). */
export function displayOrder(
  sessions: readonly SessionSummary[],
): { session: SessionSummary; depth: number }[] {
  const shown = new Set(sessions.map((session) => session.key));
  const childrenOf = new Map<string, SessionSummary[]>();
  for (const session of sessions) {
    if (session.parent && shown.has(session.parent)) {
      const children = childrenOf.get(session.parent) ?? [];
      children.push(session);
      childrenOf.set(session.parent, children);
    }
  }
  const ordered: { session: SessionSummary; depth: number }[] = [];
  for (const session of sessions) {
    if (session.parent && shown.has(session.parent)) continue;
    ordered.push({ session, depth: 0 });
    for (const child of childrenOf.get(session.key) ?? [])
      ordered.push({ session: child, depth: 1 });
  }
  return ordered;
}

const HEADERS = ['STATUS', 'SESSION', 'HANK', 'DATA', 'STARTED', 'DURATION', 'COST', 'ITER'];

/**
 * One line per session, newest first, loops indented under their pipeline; columns sized to
 * their content, the status coloured (green running, yellow killed, red unknown_termination or a
 * running session whose process is gone).
 */
export function sessionLines(sessions: readonly SessionSummary[], style: Style): string[] {
  const rows = displayOrder(sessions).map(({ session, depth }) => ({
    session,
    cells: [
      `${'  '.repeat(depth)}${session.interrupted ? 'interrupted' : session.status}`,
      session.key,
      session.hank ?? '-',
      shortPath(session.data),
      session.startedAt ? dateTime(session.startedAt) : '-',
      session.durationMs === null ? '-' : formatDuration(session.durationMs),
      session.costUsd === null ? '-' : formatCost(session.costUsd),
      iterationsOf(session),
    ],
  }));
  const widths = HEADERS.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row.cells[column] ?? '').length)),
  );
  const pad = (cells: string[], colour: (text: string) => string = (text) => text) =>
    cells
      .map((cell, column) => {
        const padded = cell.padEnd(widths[column] ?? 0);
        return column === 0 ? colour(padded) : padded;
      })
      .join('  ')
      .trimEnd();
  const lines = [style.dim(pad(HEADERS))];
  for (const { session, cells } of rows) {
    const gone = session.status === 'running' && session.alive === false;
    const warning = gone
      ? style.red(`  (process ${session.pid} is gone: ${commandHint('sessions', '--check')})`)
      : '';
    lines.push(`${pad(cells, (text) => colourStatus(text, session, style))}${warning}`);
  }
  return lines;
}

/** `3/5` for a loop with a cap, `3` otherwise, `-` when unknown. */
export function iterationsOf(session: SessionSummary): string {
  if (session.iterations === null) return '-';
  return session.type === 'loop' && session.maxIterations !== null
    ? `${session.iterations}/${session.maxIterations}`
    : String(session.iterations);
}

function colourStatus(text: string, session: SessionSummary, style: Style): string {
  if (session.status === 'running')
    return session.alive === false ? style.red(text) : style.green(text);
  if (session.status === 'killed') return style.yellow(text);
  if (session.status === 'unknown_termination') return style.red(text);
  return text;
}

/** The data path with the home directory as `~`, cut from the left to stay readable. */
function shortPath(path: string | null): string {
  if (!path) return '-';
  const home = homedir();
  const shown = home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
  return shown.length <= 32 ? shown : `…${shown.slice(shown.length - 31)}`;
}
