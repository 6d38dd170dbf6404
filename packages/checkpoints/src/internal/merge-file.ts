import { diffArrays } from 'diff';
import { diff3Merge, type MergeRegion } from 'node-diff3';

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
 * Three-way line merge of text files, with two libraries and no diff of our own: jsdiff (Myers,
 * O(ND)) aligns each side with the base, the files are cut at every base line both sides keep
 * (such a line separates whatever is on either side of it, so the pieces merge independently),
 * and node-diff3 merges only the pieces both sides changed. node-diff3 on whole files is
 * quadratic in the worst case (its LCS took 59 s on 4,000 lines of `}` and `x`, 1.3 s on 16,000
 * distinct lines, here; jsdiff takes 3–7 ms on 50,000). Its hunk rules match git's xdiff where it
 * matters for cleanliness: changes that overlap or touch (no unchanged base line between them)
 * conflict, identical changes on both sides do not. Conflict markers end lines the way the file
 * does (CRLF files get CRLF markers, as git).
 */
export function mergeText(
  base: Buffer,
  ours: Buffer,
  theirs: Buffer,
  labels: MergeLabels,
): TextMerge {
  const regions = mergeLines(splitLines(ours), splitLines(base), splitLines(theirs));
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

/** For each base line, the index of the side's line it is kept as, or -1 when the side changed it. */
function keptAs(base: string[], side: string[]): Int32Array {
  const map = new Int32Array(base.length).fill(-1);
  let at = 0;
  let to = 0;
  for (const change of diffArrays(base, side)) {
    if (change.added) to += change.count;
    else if (change.removed) at += change.count;
    else for (let i = 0; i < change.count; i++) map[at++] = to++;
  }
  return map;
}

/** node-diff3's regions for the whole files, computed piece by piece (see {@link mergeText}). */
function mergeLines(a: string[], o: string[], b: string[]): MergeRegion<string>[] {
  const inA = keptAs(o, a);
  const inB = keptAs(o, b);
  const regions: MergeRegion<string>[] = [];
  const ok = (lines: string[]): void => {
    if (lines.length === 0) return;
    const last = regions[regions.length - 1];
    if (last?.ok) last.ok.push(...lines);
    else regions.push({ ok: [...lines] });
  };
  let fromO = 0;
  let fromA = 0;
  let fromB = 0;
  for (let i = 0; i <= o.length; i++) {
    const end = i === o.length;
    const toA = end ? a.length : (inA[i] as number);
    const toB = end ? b.length : (inB[i] as number);
    if (!end && (toA < 0 || toB < 0)) continue;
    // The piece between two lines both sides keep.
    const pieceO = o.slice(fromO, i);
    const pieceA = a.slice(fromA, toA);
    const pieceB = b.slice(fromB, toB);
    if (same(pieceA, pieceO)) ok(pieceB);
    else if (same(pieceB, pieceO) || same(pieceA, pieceB)) ok(pieceA);
    else {
      for (const region of diff3Merge<string>(pieceA, pieceO, pieceB)) {
        if (region.ok) ok(region.ok);
        else regions.push(region);
      }
    }
    if (end) break;
    ok([o[i] as string]);
    fromO = i + 1;
    fromA = toA + 1;
    fromB = toB + 1;
  }
  return regions;
}

function same(x: readonly string[], y: readonly string[]): boolean {
  return x.length === y.length && x.every((line, i) => line === y[i]);
}

function joinLatin1(lines: readonly string[]): Buffer {
  return Buffer.from(lines.join(''), 'latin1');
}
