import { describe, expect, it } from 'vitest';
import { type DiffRow, sideBySide } from './side-by-side.js';

const lines = (n: number, prefix = 'line') =>
  `${Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n')}\n`;
const shape = (rows: DiffRow[]) =>
  rows.map((row) =>
    row.kind === 'collapsed'
      ? `…${row.count}`
      : `${row.left ? `${row.left.no}${row.left.type[0]}` : '_'}|${row.right ? `${row.right.no}${row.right.type[0]}` : '_'}`,
  );

describe('sideBySide()', () => {
  it('pairs a replaced line with its replacement on one row', () => {
    const diff = sideBySide('a\nb\nc\n', 'a\nB\nc\n');
    expect(shape(diff.rows)).toEqual(['1s|1s', '2r|2a', '3s|3s']);
    expect(diff).toMatchObject({ added: 1, removed: 1 });
  });

  it('leaves the other side empty for pure additions and removals', () => {
    expect(shape(sideBySide('a\nc\n', 'a\nb\nc\n').rows)).toEqual(['1s|1s', '_|2a', '2s|3s']);
    expect(shape(sideBySide('a\nb\n', 'a\n').rows)).toEqual(['1s|1s', '2r|_']);
  });

  it('shows a new file as all added and a deleted one as all removed', () => {
    expect(sideBySide(undefined, 'x\ny\n')).toMatchObject({ added: 2, removed: 0 });
    expect(sideBySide('x\n', undefined)).toMatchObject({ added: 0, removed: 1 });
  });

  it('folds a long unchanged run between changes, keeping context on both sides', () => {
    const before = `${lines(20)}`;
    const after = before.replace('line 1\n', 'LINE 1\n').replace('line 20\n', 'LINE 20\n');
    const rows = sideBySide(before, after, 3).rows;
    expect(shape(rows)).toEqual([
      '1r|1a',
      '2s|2s',
      '3s|3s',
      '4s|4s',
      '…12',
      '17s|17s',
      '18s|18s',
      '19s|19s',
      '20r|20a',
    ]);
    const folded = rows[4];
    expect(folded?.kind === 'collapsed' && folded.hidden.length).toBe(12);
  });

  it('keeps no context before the first change or after the last', () => {
    const before = lines(10);
    const after = before.replace('line 5\n', 'five\n');
    expect(shape(sideBySide(before, after, 2).rows)).toEqual([
      '…2',
      '3s|3s',
      '4s|4s',
      '5r|5a',
      '6s|6s',
      '7s|7s',
      '…3',
    ]);
  });

  it('does not fold a run only one line longer than its context', () => {
    const rows = sideBySide('a\nb\nc\nd\n', 'A\nb\nc\nD\n', 1).rows;
    expect(rows.some((row) => row.kind === 'collapsed')).toBe(false);
  });

  it('gives no rows for identical texts except one fold', () => {
    expect(shape(sideBySide(lines(5), lines(5)).rows)).toEqual(['…5']);
  });
});
