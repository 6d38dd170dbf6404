/**
 * A line diff (jsdiff's `diffLines`) laid out as two columns: removed lines on the left beside the
 * added lines that replace them, unchanged runs folded down to a few lines of context.
 */
import { diffLines } from 'diff';

export interface DiffCell {
  /** 1-based line number on its side. */
  no: number;
  text: string;
  type: 'same' | 'removed' | 'added';
}

export type DiffRow =
  | { kind: 'same' | 'change'; left?: DiffCell; right?: DiffCell }
  | { kind: 'collapsed'; count: number; hidden: DiffRow[] };

export interface SideBySide {
  rows: DiffRow[];
  added: number;
  removed: number;
  /** jsdiff gave up (too many edits for the time limit): shown as all removed, all added. */
  gaveUp: boolean;
}

/** Unchanged lines kept on each side of a change. */
export const CONTEXT_LINES = 3;
/** jsdiff's time budget per file; beyond it the file is shown as replaced. */
const DIFF_TIMEOUT_MS = 1500;

/** The lines of a change's value, without the empty string after a final newline. */
function linesOf(value: string): string[] {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function pairRows(before: string, after: string): { rows: DiffRow[]; gaveUp: boolean } {
  const computed = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS });
  const gaveUp = computed === undefined;
  const changes = computed ?? [
    { value: before, removed: true, added: false, count: 0 },
    { value: after, removed: false, added: true, count: 0 },
  ];
  const rows: DiffRow[] = [];
  let left = 1;
  let right = 1;
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    if (change === undefined) continue;
    if (!change.added && !change.removed) {
      for (const text of linesOf(change.value)) {
        rows.push({
          kind: 'same',
          left: { no: left++, text, type: 'same' },
          right: { no: right++, text, type: 'same' },
        });
      }
      continue;
    }
    const removed = change.removed ? linesOf(change.value) : [];
    const next = changes[i + 1];
    let added: string[] = change.added ? linesOf(change.value) : [];
    if (change.removed && next?.added) {
      added = linesOf(next.value);
      i++;
    }
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const l = removed[k];
      const r = added[k];
      rows.push({
        kind: 'change',
        left: l === undefined ? undefined : { no: left++, text: l, type: 'removed' },
        right: r === undefined ? undefined : { no: right++, text: r, type: 'added' },
      });
    }
  }
  return { rows, gaveUp };
}

/** Folds unchanged runs longer than the context around them into one `collapsed` row. */
export function collapseUnchanged(rows: DiffRow[], context = CONTEXT_LINES): DiffRow[] {
  const out: DiffRow[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]?.kind !== 'same') {
      out.push(rows[i] as DiffRow);
      i++;
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j]?.kind === 'same') j++;
    const run = rows.slice(i, j);
    const keepBefore = i === 0 ? 0 : context;
    const keepAfter = j === rows.length ? 0 : context;
    if (run.length > keepBefore + keepAfter + 1) {
      out.push(...run.slice(0, keepBefore));
      out.push({
        kind: 'collapsed',
        count: run.length - keepBefore - keepAfter,
        hidden: run.slice(keepBefore, run.length - keepAfter),
      });
      out.push(...run.slice(run.length - keepAfter));
    } else {
      out.push(...run);
    }
    i = j;
  }
  return out;
}

export function sideBySide(
  before: string | undefined,
  after: string | undefined,
  context = CONTEXT_LINES,
): SideBySide {
  const { rows, gaveUp } = pairRows(before ?? '', after ?? '');
  let added = 0;
  let removed = 0;
  for (const row of rows) {
    if (row.kind !== 'change') continue;
    if (row.left !== undefined) removed++;
    if (row.right !== undefined) added++;
  }
  return { rows: collapseUnchanged(rows, context), added, removed, gaveUp };
}
