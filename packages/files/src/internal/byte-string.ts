const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The UTF-8 bytes of `text`, one char per byte (latin1). Git matches .gitignore rules byte by
 * byte: its `?` matches one byte, so `?.md` does not match `ﬀ.md` (three bytes) and `??.md`
 * matches `é.md` (two). Giving the `ignore` package byte strings, for rules and paths alike,
 * reproduces that. ASCII text is returned as is, so the common case costs one regex test.
 */
export function toByteString(text: string): string {
  return NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

/** Decodes file content as a byte string (see {@link toByteString}). */
export function bytesToByteString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
