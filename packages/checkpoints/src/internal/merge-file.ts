import { diff3Merge } from 'node-diff3';

/** How conflict markers name the three sides (`<<<<<<< ours`, `||||||| base`, `>>>>>>> theirs`). */
export interface MergeLabels {
  ours: string;
  base: string;
  theirs: string;
}

/** The outcome of a line-level merge of one text file. */
export type TextMerge =
  | { clean: true; content: Buffer }
  | {
      clean: false;
      /** Every clean hunk of both sides, and `ours` in each conflicting hunk (the `ordered` result). */
      content: Buffer;
      /** The file with diff3-style markers around each conflicting hunk. */
      text: string;
    };

/** Git's rule (`buffer_is_binary`): a NUL byte in the first 8000 bytes. */
export function isBinary(content: Uint8Array): boolean {
  const end = Math.min(content.length, 8000);
  for (let i = 0; i < end; i++) if (content[i] === 0) return true;
  return false;
}

/**
 * Splits into lines that keep their terminator, so `a\n` and a last line `a` without one are
 * different lines (as in git) and CRLF survives untouched. Decoded as latin1: one char per byte,
 * so any encoding round-trips exactly and only the `\n` byte splits.
 */
export function splitLines(content: Buffer): string[] {
  const text = content.toString('latin1');
  const lines: string[] = [];
  let start = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
    lines.push(text.slice(start, at + 1));
    start = at + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * Three-way line merge of text files with node-diff3 (a maintained, typed diff3; no hand-written
 * diff). Its hunk rules match git's xdiff where it matters for cleanliness: changes that overlap
 * or touch (no unchanged base line between them) conflict, identical changes on both sides do
 * not. Conflict markers end lines the way the file does (CRLF files get CRLF markers, as git).
 */
export function mergeText(
  base: Buffer,
  ours: Buffer,
  theirs: Buffer,
  labels: MergeLabels,
): TextMerge {
  const regions = diff3Merge<string>(splitLines(ours), splitLines(base), splitLines(theirs), {
    excludeFalseConflicts: true,
  });
  if (regions.every((region) => region.ok)) {
    return { clean: true, content: joinLatin1(regions.flatMap((region) => region.ok ?? [])) };
  }
  const eol = /\r\n/.test(ours.toString('latin1', 0, 8000)) ? '\r\n' : '\n';
  const kept: string[] = [];
  const marked: Buffer[] = [];
  const lines = (list: readonly string[]): void => {
    if (list.length === 0) return;
    const joined = list.join('');
    marked.push(Buffer.from(joined, 'latin1'));
    // A side whose last line has no newline still needs its marker on a line of its own.
    if (!joined.endsWith('\n')) marked.push(Buffer.from(eol));
  };
  const marker = (text: string): void => {
    marked.push(Buffer.from(`${text}${eol}`, 'utf8'));
  };
  for (const region of regions) {
    if (region.ok) {
      kept.push(...region.ok);
      marked.push(Buffer.from(region.ok.join(''), 'latin1'));
      continue;
    }
    const conflict = region.conflict;
    if (!conflict) continue;
    kept.push(...conflict.a);
    marker(`<<<<<<< ${labels.ours}`);
    lines(conflict.a);
    marker(`||||||| ${labels.base}`);
    lines(conflict.o);
    marker('=======');
    lines(conflict.b);
    marker(`>>>>>>> ${labels.theirs}`);
  }
  return { clean: false, content: joinLatin1(kept), text: Buffer.concat(marked).toString('utf8') };
}

function joinLatin1(lines: readonly string[]): Buffer {
  return Buffer.from(lines.join(''), 'latin1');
}
