import { describe, expect, it } from 'vitest';
import { escapeControlCharacters, hasControlCharacters } from './escape-control.js';

describe('escapeControlCharacters()', () => {
  it('shows every control character as text, keeping tabs and newlines', () => {
    const hostile = 'a\u001b]0;pwned\u0007b\u001b[2Jc\rd\u009be\u202ef\u007fg\tnext\nline';
    const safe = escapeControlCharacters(hostile);
    expect(safe).toBe(
      'a\\u001b]0;pwned\\u0007b\\u001b[2Jc\\u000dd\\u009be\\u202ef\\u007fg\tnext\nline',
    );
    expect(hasControlCharacters(safe)).toBe(false);
  });

  it("keeps the CLI's own colour codes when colour is on, and only those", () => {
    const line =
      '\u001b[1mname\u001b[22m \u001b[31mred\u001b[39m \u001b[5mblink\u001b[25m \u001b[1;31mx';
    expect(escapeControlCharacters(line, true)).toBe(
      '\u001b[1mname\u001b[22m \u001b[31mred\u001b[39m \\u001b[5mblink\\u001b[25m \\u001b[1;31mx',
    );
    expect(escapeControlCharacters(line, false)).not.toContain('\u001b');
  });

  it('leaves an NDJSON line valid JSON with the same values', () => {
    const event = { name: 'x\u007f\u0085\u202ey', tab: '\t' };
    const line = escapeControlCharacters(JSON.stringify(event));
    expect(JSON.parse(line)).toEqual(event);
    expect(line).not.toMatch(/[\u007f\u0085\u202e]/);
  });
});
