/** Where a JSON text stopped parsing, and how to show it to a person. */
export interface JsonSyntaxProblem {
  /** What is wrong, without V8's position suffix or quoted snippet ("Unexpected token '}'"). */
  message: string;
  /** 1-based line of the offending character (lines end at `\n`, `\r\n` or `\r`). */
  line: number;
  /** 1-based column in that line, in UTF-16 code units; a tab counts as one column. */
  column: number;
  /** 0-based offset of the offending character in the text without its byte-order mark. */
  offset: number;
  /** The offending line (clipped around the column when long) and a caret line under the column. */
  excerpt: string;
  /** `<file>:<line>:<column>: <message>`, a newline, and the excerpt: the whole report. */
  formatted: string;
}

/** The result of {@link parseJsonWithLocation}. */
export type JsonParseResult =
  | { ok: true; value: unknown }
  | { ok: false; error: JsonSyntaxProblem };

/** Lines longer than this are shown as a window around the column (minified JSON is one line). */
const EXCERPT_WIDTH = 120;
const BOM = '\uFEFF';

/**
 * Parses JSON text; on a syntax error it says where, as compilers do:
 * `hank.json:3:15: Unexpected token '}'`, the offending line, and a caret under the column.
 *
 * A leading byte-order mark is skipped (editors on Windows write one; `JSON.parse` refuses it).
 * The position comes from the engine's message ("at position N", or the end of the input for
 * "Unexpected end of JSON input"); where the engine gives none (Node 20 says only
 * `Unexpected token '}', "..." is not valid JSON`) a strict scanner of the JSON grammar finds the
 * first offending character. Total: never throws, for any string.
 */
export function parseJsonWithLocation(text: string, file = '<input>'): JsonParseResult {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (cause) {
    const raw = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, error: locate(body, raw, file) };
  }
}

function locate(text: string, engineMessage: string, file: string): JsonSyntaxProblem {
  const endOfInput = /Unexpected end of JSON input/.test(engineMessage);
  const stated = /at position (\d+)/.exec(engineMessage);
  let offset: number;
  if (endOfInput) offset = endOfContent(text);
  else if (stated) offset = Number(stated[1]);
  else offset = firstJsonErrorOffset(text);
  // An error stated at the very end ("Expected ',' or ']'" on a truncated file) is shown just
  // after the last token, not on the blank line after it.
  offset = Math.max(0, Math.min(offset, text.length));
  if (offset > endOfContent(text)) offset = endOfContent(text);
  const message = cleanMessage(engineMessage);
  const { line, column, lineText } = lineAt(text, offset);
  const excerpt = excerptOf(lineText, column);
  return {
    message,
    line,
    column,
    offset,
    excerpt,
    formatted: `${file}:${line}:${column}: ${message}\n${excerpt}`,
  };
}

/** V8's message without the position suffix and without the quoted copy of the input. */
function cleanMessage(message: string): string {
  let cleaned = message.replace(/\s*\(line \d+ column \d+\)/, '');
  cleaned = cleaned.replace(/\s+in JSON at position \d+.*$/s, '');
  // `Unexpected token '}', "<the input, maybe clipped>" is not valid JSON`: the copy can be
  // megabytes; the excerpt shows the part that matters.
  const quoted = /^(Unexpected token '.+?'), (?:\.\.\.)?".*" is not valid JSON$/s.exec(cleaned);
  if (quoted?.[1]) cleaned = quoted[1];
  // A token that is a line break or another control character is shown escaped.
  cleaned = cleaned.replace(/^Unexpected token '([\s\S]+?)'/, (whole, token: string) =>
    token.length === 1 && isInvisible(token.charCodeAt(0))
      ? `Unexpected token '${escapeInvisible(token.charCodeAt(0))}'`
      : whole,
  );
  cleaned = cleaned.split('\n')[0] ?? cleaned;
  if (cleaned.length > 200) cleaned = `${cleaned.slice(0, 200)}…`;
  return cleaned === '' ? 'Invalid JSON' : cleaned;
}

/**
 * What is wrong with a text `JSON.parse` refused, without a single character of the text: V8
 * quotes the input (`Unexpected token 'r', "root:$y$j9"... is not valid JSON`), and a file a
 * hank names may be anything readable (`/etc/shadow` through a crafted path): no message, log
 * or job error may carry its content. Positions stay (`at position 12`, line and column).
 */
export function describeJsonError(cause: unknown): string {
  const raw = cause instanceof Error ? cause.message : String(cause);
  let text = raw.split('\n')[0] ?? '';
  // `Unexpected token 'x', "<input>" is not valid JSON` and `"<input>" is not valid JSON`.
  text = text.replace(/^Unexpected token .*? is not valid JSON$/s, 'Unexpected token');
  text = text.replace(/^(?:\.\.\.)?".*" is not valid JSON$/s, 'not valid JSON');
  text = text.replace(/^Unexpected token '.+?'/, 'Unexpected token');
  // Anything else V8 might quote: drop every quoted run.
  text = text.replace(/"[^"]*"/g, '…').replace(/'[^']{2,}'/g, '…');
  if (text.length > 160) text = `${text.slice(0, 160)}…`;
  return text === '' ? 'not valid JSON' : text;
}

/** Just after the last non-whitespace character: where a truncated document stops. */
function endOfContent(text: string): number {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1] as string)) end--;
  return end;
}

function lineAt(text: string, offset: number): { line: number; column: number; lineText: string } {
  let line = 1;
  let start = 0;
  for (let index = 0; index < offset; index++) {
    const char = text.charCodeAt(index);
    if (char === 10 || (char === 13 && text.charCodeAt(index + 1) !== 10)) {
      line++;
      start = index + 1;
    }
  }
  // The `\n` of a `\r\n` pair is the same line end as its `\r`: point at the `\r`.
  const at =
    offset > start && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10
      ? offset - 1
      : offset;
  let end = start;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return { line, column: at - start + 1, lineText: text.slice(start, end) };
}

/** The line (a window of it when long) and a caret under the column, tabs kept so it lines up. */
function excerptOf(lineText: string, column: number): string {
  let from = 0;
  let to = lineText.length;
  if (lineText.length > EXCERPT_WIDTH) {
    from = Math.max(0, Math.min(column - 1 - EXCERPT_WIDTH / 2, lineText.length - EXCERPT_WIDTH));
    to = from + EXCERPT_WIDTH;
  }
  const prefix = from > 0 ? '…' : '';
  const suffix = to < lineText.length ? '…' : '';
  // Control characters (a tab excepted) would move the cursor or ring the bell: shown as `?`.
  const shown = [...lineText.slice(from, to)]
    .map((char) => (char !== '\t' && isInvisible(char.charCodeAt(0)) ? '?' : char))
    .join('');
  const before = lineText.slice(from, column - 1).replace(/[^\t]/g, ' ');
  return `${prefix}${shown}${suffix}\n${prefix ? ' ' : ''}${before}^`;
}

/** A control character, DEL or a byte-order mark: nothing a reader can see. */
function isInvisible(code: number): boolean {
  return code < 0x20 || code === 0x7f || code === 0xfeff;
}

/** `\n`, `\t`, `\u0001` ... as JSON writes them; DEL and the BOM as `\u` escapes. */
function escapeInvisible(code: number): string {
  return code < 0x20
    ? JSON.stringify(String.fromCharCode(code)).slice(1, -1)
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * The offset of the first character that breaks the JSON grammar (RFC 8259, as `JSON.parse`
 * reads it), or the text's length when it ends too early. Iterative, so any nesting depth is
 * fine. Only called on text `JSON.parse` refused.
 */
export function firstJsonErrorOffset(text: string): number {
  let index = 0;
  const skip = () => {
    while (index < text.length && WHITESPACE.has(text[index] as string)) index++;
  };
  // What the scanner expects next; the stack holds the open containers ('{' or '[').
  const stack: string[] = [];
  type Expect = 'value' | 'key-or-close' | 'key' | 'colon' | 'comma-or-close' | 'value-or-close';
  let expect: Expect = 'value';
  for (;;) {
    skip();
    if (index >= text.length) return text.length;
    const char = text[index] as string;
    switch (expect) {
      case 'value':
      case 'value-or-close': {
        if (expect === 'value-or-close' && char === ']') {
          stack.pop();
          index++;
          break;
        }
        const end = scanValueStart(text, index);
        if (end.error !== undefined) return end.error;
        if (char === '{') {
          stack.push('{');
          index++;
          expect = 'key-or-close';
          continue;
        }
        if (char === '[') {
          stack.push('[');
          index++;
          expect = 'value-or-close';
          continue;
        }
        index = end.next;
        break;
      }
      case 'key-or-close':
      case 'key': {
        if (expect === 'key-or-close' && char === '}') {
          stack.pop();
          index++;
          break;
        }
        if (char !== '"') return index;
        const end = scanString(text, index);
        if (end.error !== undefined) return end.error;
        index = end.next;
        expect = 'colon';
        continue;
      }
      case 'colon':
        if (char !== ':') return index;
        index++;
        expect = 'value';
        continue;
      case 'comma-or-close': {
        const open = stack[stack.length - 1];
        if (char === ',') {
          index++;
          expect = open === '{' ? 'key' : 'value';
          continue;
        }
        if ((open === '{' && char === '}') || (open === '[' && char === ']')) {
          stack.pop();
          index++;
          break;
        }
        return index;
      }
    }
    // A value (scalar or container) just ended.
    if (stack.length === 0) {
      skip();
      // Valid as far as the grammar goes (JSON.parse refused it for another reason): point at
      // the end, or at what trails the document.
      return index;
    }
    expect = 'comma-or-close';
  }
}

type Scan = { next: number; error?: undefined } | { next?: undefined; error: number };

/** Checks the scalar starting at `start` (containers are opened by the caller). */
function scanValueStart(text: string, start: number): Scan {
  const char = text[start] as string;
  if (char === '{' || char === '[') return { next: start + 1 };
  if (char === '"') return scanString(text, start);
  if (char === '-' || (char >= '0' && char <= '9')) return scanNumber(text, start);
  for (const word of ['true', 'false', 'null']) {
    if (char !== word[0]) continue;
    for (let offset = 0; offset < word.length; offset++) {
      if (start + offset >= text.length) return { error: text.length };
      if (text[start + offset] !== word[offset]) return { error: start + offset };
    }
    return { next: start + word.length };
  }
  return { error: start };
}

function scanString(text: string, start: number): Scan {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 34) return { next: index + 1 };
    if (code < 0x20) return { error: index };
    if (code === 92) {
      const escaped = text[index + 1];
      if (escaped === undefined) return { error: text.length };
      if (escaped === 'u') {
        for (let digit = 2; digit < 6; digit++) {
          const hex = text[index + digit];
          if (hex === undefined) return { error: text.length };
          if (!/[0-9a-fA-F]/.test(hex)) return { error: index + digit };
        }
        index += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(escaped)) return { error: index + 1 };
      index += 2;
      continue;
    }
    index++;
  }
  return { error: text.length };
}

function scanNumber(text: string, start: number): Scan {
  let index = start;
  const digits = () => {
    const from = index;
    while (index < text.length && (text[index] as string) >= '0' && (text[index] as string) <= '9')
      index++;
    return index - from;
  };
  if (text[index] === '-') index++;
  if (index >= text.length) return { error: text.length };
  if (text[index] === '0') index++;
  else if (digits() === 0) return { error: index };
  if (text[index] === '.') {
    index++;
    if (index >= text.length) return { error: text.length };
    if (digits() === 0) return { error: index };
  }
  if (text[index] === 'e' || text[index] === 'E') {
    index++;
    if (text[index] === '+' || text[index] === '-') index++;
    if (index >= text.length) return { error: text.length };
    if (digits() === 0) return { error: index };
  }
  return { next: index };
}
