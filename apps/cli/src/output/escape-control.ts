/**
 * The colour and weight codes the CLI's own `Style` writes (bold, dim, red, green, yellow, cyan and
 * their resets): with colour on, exactly these escape sequences pass through a line.
 */
const OWN_STYLE_CODES = new Set(['1', '2', '22', '31', '32', '33', '36', '39']);

// C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates
// that reorder what a terminal shows ("Trojan Source"): a line from a hank, a model or a job can
// hold any of them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: our own colour codes start with ESC
const OWN_STYLE = /\u001b\[(\d{1,2})m/y;

/** True when `text` holds a character a terminal would act on (what the escaping removes). */
export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text);
}

function escaped(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Makes untrusted text safe to print: every control character becomes visible text (`\u001b`,
 * valid inside a JSON string too, so an NDJSON line stays JSON), so a hank name, a codon name, a
 * model's text or a job name can never move the cursor, clear the screen, set the window title,
 * rewrite the clipboard (OSC 52) or reorder a line. Tabs and newlines stay. With `keepOwnStyles`
 * (colour on), the CLI's own colour codes pass; every other escape sequence is shown escaped.
 */
export function escapeControlCharacters(text: string, keepOwnStyles = false): string {
  let out = '';
  let last = 0;
  CONTROL.lastIndex = 0;
  for (let match = CONTROL.exec(text); match !== null; match = CONTROL.exec(text)) {
    const at = match.index;
    out += text.slice(last, at);
    if (keepOwnStyles && match[0] === '\u001b') {
      OWN_STYLE.lastIndex = at;
      const style = OWN_STYLE.exec(text);
      if (style && OWN_STYLE_CODES.has(style[1] as string)) {
        out += style[0];
        last = at + style[0].length;
        CONTROL.lastIndex = last;
        continue;
      }
    }
    out += escaped(match[0]);
    last = at + 1;
  }
  return out + text.slice(last);
}
