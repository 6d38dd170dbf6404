import { diffLines, type EditRun } from './line-diff.js';
import { modeString } from './objects.js';

/** One side of a file change. */
export interface PatchSide {
  mode: number;
  oid: string;
  content: Buffer;
}

/** git's binary test: a NUL byte in the first 8000 bytes. */
export function isBinary(content: Buffer | undefined): boolean {
  if (!content) return false;
  return content.subarray(0, 8000).includes(0);
}

/** A path as git prints it in patches: C-quoted when it has special or non-ASCII bytes. */
export function quotePath(prefix: string, path: string): string {
  const bytes = Buffer.from(prefix + path);
  let needs = false;
  let out = '';
  for (const byte of bytes) {
    if (byte === 0x22 || byte === 0x5c) {
      needs = true;
      out += `\\${String.fromCharCode(byte)}`;
    } else if (byte < 0x20 || byte >= 0x7f) {
      needs = true;
      const named: Record<number, string> = {
        7: 'a',
        8: 'b',
        9: 't',
        10: 'n',
        11: 'v',
        12: 'f',
        13: 'r',
      };
      out += named[byte] ? `\\${named[byte]}` : `\\${byte.toString(8).padStart(3, '0')}`;
    } else out += String.fromCharCode(byte);
  }
  return needs ? `"${out}"` : out;
}

/**
 * A `git diff`-style patch for one path, which `git apply` accepts: header, mode lines,
 * `index` line, and unified hunks with `context` lines (no rename detection, no function names
 * after `@@`). A type change (file ↔ symlink) is printed as a deletion plus a creation, as git
 * does.
 */
export function formatPatch(
  path: string,
  before: PatchSide | undefined,
  after: PatchSide | undefined,
  context: number,
): string {
  if (before && after && (before.mode === 0o120000) !== (after.mode === 0o120000)) {
    return (
      formatPatch(path, before, undefined, context) + formatPatch(path, undefined, after, context)
    );
  }
  const a = quotePath('a/', path);
  const b = quotePath('b/', path);
  const lines = [`diff --git ${a} ${b}`];
  const short = (oid: string | undefined): string => (oid ?? '0'.repeat(40)).slice(0, 7);
  if (!before && after) lines.push(`new file mode ${modeString(after.mode)}`);
  else if (before && !after) lines.push(`deleted file mode ${modeString(before.mode)}`);
  else if (before && after && before.mode !== after.mode) {
    lines.push(`old mode ${modeString(before.mode)}`, `new mode ${modeString(after.mode)}`);
  }
  if (before?.oid === after?.oid) return `${lines.join('\n')}\n`;
  const sameMode =
    before && after && before.mode === after.mode ? ` ${modeString(before.mode)}` : '';
  lines.push(`index ${short(before?.oid)}..${short(after?.oid)}${sameMode}`);
  const from = before ? a : '/dev/null';
  const to = after ? b : '/dev/null';
  if (isBinary(before?.content) || isBinary(after?.content)) {
    lines.push(`Binary files ${from} and ${to} differ`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(`--- ${from}`, `+++ ${to}`);
  const old = splitLines(before?.content);
  const next = splitLines(after?.content);
  const body = hunks(old, next, diffLines(old.lines, next.lines), context);
  return `${lines.join('\n')}\n${body}`;
}

interface Lines {
  lines: string[];
  /** The last line has no trailing newline. */
  noEol: boolean;
}

/** Splits text into lines; a last line without "\n" gets a marker so it differs from one with. */
function splitLines(content: Buffer | undefined): Lines {
  if (!content || content.length === 0) return { lines: [], noEol: false };
  const text = content.toString('utf8');
  const lines = text.split('\n');
  const noEol = lines[lines.length - 1] !== '';
  if (!noEol) lines.pop();
  else lines[lines.length - 1] += '\u0000';
  return { lines, noEol };
}

function hunks(old: Lines, next: Lines, runs: EditRun[], context: number): string {
  // Flatten the runs into one op per line, remembering each op's position in both files.
  const signs: string[] = [];
  const texts: string[] = [];
  const oldAt: number[] = [];
  const newAt: number[] = [];
  for (const run of runs) {
    for (let n = 0; n < run.length; n++) {
      oldAt.push(run.kind === 'insert' ? run.oldStart : run.oldStart + n);
      newAt.push(run.kind === 'delete' ? run.newStart : run.newStart + n);
      if (run.kind === 'insert') {
        signs.push('+');
        texts.push(next.lines[run.newStart + n] as string);
      } else {
        signs.push(run.kind === 'delete' ? '-' : ' ');
        texts.push(old.lines[run.oldStart + n] as string);
      }
    }
  }
  const changed: number[] = [];
  for (let k = 0; k < signs.length; k++) if (signs[k] !== ' ') changed.push(k);
  const out: string[] = [];
  let at = 0;
  while (at < changed.length) {
    // Changes separated by at most 2 * context equal lines share a hunk, as in git.
    let end = at;
    while (
      end + 1 < changed.length &&
      (changed[end + 1] as number) - (changed[end] as number) - 1 <= 2 * context
    )
      end++;
    const from = Math.max(0, (changed[at] as number) - context);
    const to = Math.min(signs.length, (changed[end] as number) + context + 1);
    let oldCount = 0;
    let newCount = 0;
    for (let k = from; k < to; k++) {
      if (signs[k] !== '+') oldCount++;
      if (signs[k] !== '-') newCount++;
    }
    out.push(
      `@@ -${range(oldAt[from] as number, oldCount)} +${range(newAt[from] as number, newCount)} @@`,
    );
    for (let k = from; k < to; k++) {
      const text = texts[k] as string;
      if (text.endsWith('\u0000'))
        out.push(`${signs[k]}${text.slice(0, -1)}`, '\\ No newline at end of file');
      else out.push(`${signs[k]}${text}`);
    }
    at = end + 1;
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

/** `start,count` of a hunk side; git prints an empty side at the line before it. */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}
