import type { Style } from './terminal.js';

/**
 * A plain table: a dim header line, then one line per row, columns as wide as their widest
 * cell, two spaces apart; `colour` paints one column's cells (a status) after they are padded.
 */
export function tableLines(
  headers: readonly string[],
  rows: readonly string[][],
  style: Style,
  colour?: { column: number; paint: (cell: string) => string },
): string[] {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[], painted: boolean) =>
    cells
      .map((cell, column) => {
        const padded = cell.padEnd(widths[column] ?? 0);
        return painted && colour?.column === column ? colour.paint(padded) : padded;
      })
      .join('  ')
      .trimEnd();
  return [style.dim(line(headers, false)), ...rows.map((cells) => line(cells, true))];
}
