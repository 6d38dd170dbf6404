/**
 * Text from outside (an agent's shell command, a file name, a hank's name) made safe to print on
 * one terminal line: control characters, escape sequences included, become visible escapes
 * (`\x1b`, `\n`), so they can neither move the cursor nor recolour the terminal. A small helper
 * for the cleanup preview and the interactive start; the live view has its own sanitising.
 */
export function printable(text: string): string {
  // C0 controls, DEL and the C1 controls (0x80-0x9f, which some terminals also obey).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => {
    if (char === '\n') return '\\n';
    if (char === '\t') return '\\t';
    if (char === '\r') return '\\r';
    return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}
