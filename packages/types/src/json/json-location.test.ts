import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_RUNS, FUZZ_SEED, fuzz, fuzzTimeout } from '../../test/fuzz.js';
import { describeJsonError, type JsonSyntaxProblem, parseJsonWithLocation } from '../index.js';
import { firstJsonErrorOffset } from './json-location.js';

const failure = (text: string, file = 'hank.json'): JsonSyntaxProblem => {
  const result = parseJsonWithLocation(text, file);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
  return result.error;
};
/** The caret line of an excerpt, and the line above it. */
const excerptLines = (problem: JsonSyntaxProblem) => problem.excerpt.split('\n');

describe('parseJsonWithLocation()', () => {
  it('parses valid JSON as JSON.parse does', () => {
    expect(parseJsonWithLocation('{"a": [1, "x", null]}')).toEqual({
      ok: true,
      value: { a: [1, 'x', null] },
    });
  });

  it('skips a byte-order mark', () => {
    expect(parseJsonWithLocation('\uFEFF{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('locates a trailing comma (a position V8 states) with the line and a caret', () => {
    const problem = failure('{\n  "meta": {"name": "x"},\n  "hank": [1,],\n}\n');
    expect(problem).toMatchObject({ line: 3, column: 14 });
    expect(problem.formatted.split('\n')[0]).toBe("hank.json:3:14: Unexpected token ']'");
    expect(excerptLines(problem)).toEqual(['  "hank": [1,],', '             ^']);
  });

  it('locates an unexpected token whose message has no position (Node 20)', () => {
    const problem = failure('{\n  "a": tru}\n');
    expect(problem).toMatchObject({ line: 2, column: 11, message: "Unexpected token '}'" });
    // The copy of the input V8 puts in its message is not repeated.
    expect(problem.formatted).not.toContain('is not valid JSON');
    expect(excerptLines(problem)).toEqual(['  "a": tru}', '          ^']);
  });

  it('points just after the last token when the input ends too early', () => {
    expect(failure('{\n  "hank": [\n    {"id": "a"}\n\n')).toMatchObject({ line: 3, column: 16 });
    const cut = failure('{\n  "a": nul');
    expect(cut).toMatchObject({ line: 2, column: 11, message: 'Unexpected end of JSON input' });
    expect(failure('{\n  "a": nul\n')).toMatchObject({
      line: 2,
      column: 11,
      message: "Unexpected token '\\n'",
    });
    expect(failure('')).toMatchObject({ line: 1, column: 1, offset: 0 });
    expect(failure('  \n ')).toMatchObject({ line: 1, column: 1 });
  });

  it('counts lines of CRLF and lone CR files, and never shows a CR', () => {
    const crlf = failure('{\r\n"a": 1,\r\n"b": }\r\n');
    expect(crlf).toMatchObject({ line: 3, column: 6 });
    expect(crlf.excerpt).not.toContain('\r');
    expect(failure('{\r"a": 1,\r"b": }')).toMatchObject({ line: 3, column: 6 });
  });

  it('keeps tabs in the caret line so the caret stands under the column', () => {
    const problem = failure('{\n\t\t"a": 1 2\n}');
    expect(problem).toMatchObject({ line: 2, column: 10 });
    expect(excerptLines(problem)).toEqual(['\t\t"a": 1 2', '\t\t       ^']);
  });

  it('counts columns after a BOM from the first visible character', () => {
    expect(failure('\uFEFF{"a" 1}')).toMatchObject({ line: 1, column: 6 });
  });

  it('clips a long line around the column', () => {
    const text = `{"a": "${'x'.repeat(5000)}", "b": nope}`;
    const problem = failure(text);
    // V8 reads `n` as the start of `null` and stops at the `o`.
    expect(problem.column).toBe(text.indexOf('nope') + 2);
    const [shown, caret] = excerptLines(problem);
    expect(shown?.length).toBeLessThanOrEqual(122);
    expect(shown?.[(caret?.length ?? 0) - 1]).toBe('o');
    expect(problem.message.length).toBeLessThan(250);
  });
});

describe(`parseJsonWithLocation() properties (FUZZ_RUNS=${FUZZ_RUNS}, FUZZ_SEED=${FUZZ_SEED})`, () => {
  /** JSON texts with one character inserted, removed or replaced: near-misses, as people make. */
  const nearMiss = fc
    .tuple(
      fc.jsonValue({ maxDepth: 3 }),
      fc.boolean(),
      fc.nat(),
      fc.constantFrom('remove', 'insert', 'replace'),
      fc.constantFrom(',', '}', ']', '{', '[', '"', ':', ' ', '\n', '\r\n', '\t', 'x', '0', '\\'),
    )
    .map(([value, pretty, pick, edit, char]) => {
      const text = JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null';
      const at = pick % (text.length + 1);
      if (edit === 'remove') return text.slice(0, at) + text.slice(at + 1);
      if (edit === 'insert') return text.slice(0, at) + char + text.slice(at);
      return text.slice(0, at) + char + text.slice(at + 1);
    });
  const anyText = fc.oneof(nearMiss, fc.string(), fc.string({ unit: 'binary' }), fc.json());

  it('never throws, and agrees with JSON.parse', { timeout: fuzzTimeout() }, () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const result = parseJsonWithLocation(text);
        let parsed: { ok: boolean; value?: unknown };
        try {
          parsed = { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
        } catch {
          parsed = { ok: false };
        }
        expect(result.ok).toBe(parsed.ok);
        if (result.ok) expect(result.value).toEqual(parsed.value);
      }),
      fuzz(),
    );
  });

  it('always gives a location inside the text', { timeout: fuzzTimeout() }, () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const result = parseJsonWithLocation(text, 'f.json');
        if (result.ok) return;
        const { line, column, offset, excerpt, formatted } = result.error;
        const body = text.replace(/^\uFEFF/, '');
        const lines = body.split(/\r\n|\n|\r/);
        expect(offset).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThanOrEqual(body.length);
        expect(line).toBeGreaterThanOrEqual(1);
        expect(line).toBeLessThanOrEqual(lines.length);
        expect(column).toBeGreaterThanOrEqual(1);
        expect(column).toBeLessThanOrEqual((lines[line - 1] as string).length + 1);
        expect(formatted.startsWith(`f.json:${line}:${column}: `)).toBe(true);
        const excerptLinesOf = excerpt.split('\n');
        expect(excerptLinesOf).toHaveLength(2);
        expect(excerptLinesOf[1]?.endsWith('^')).toBe(true);
      }),
      fuzz(),
    );
  });

  it('finds the position V8 states, where it states one', { timeout: fuzzTimeout() }, () => {
    fc.assert(
      fc.property(nearMiss, (text) => {
        try {
          JSON.parse(text);
        } catch (error) {
          const stated = /at position (\d+)/.exec((error as Error).message);
          if (stated) expect(firstJsonErrorOffset(text)).toBe(Number(stated[1]));
          if (/Unexpected end of JSON input/.test((error as Error).message))
            expect(firstJsonErrorOffset(text)).toBe(text.length);
        }
      }),
      fuzz(),
    );
  });
});

describe('describeJsonError()', () => {
  it('says what is wrong without a character of the input', () => {
    for (const text of [
      'root:$y$SECRET:1:2',
      '"SECRET"x',
      '{"a": SECRET}',
      '[1, 2',
      '{"a":1} SECRET',
    ]) {
      let cause: unknown;
      try {
        JSON.parse(text);
      } catch (error) {
        cause = error;
      }
      const said = describeJsonError(cause);
      expect(said).not.toMatch(/SECRET|root/);
      expect(said.length).toBeGreaterThan(5);
    }
  });
});
