import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

// Claude Code can compress request bodies (CLAUDE_CODE_GZIP_REQUEST_BODY_LEVEL); a proxy-like
// server must read them like the real API does.
const DECODERS: Record<string, (buffer: Buffer) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** Reads the whole request body as text, undoing any content-encoding. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  let buffer: Buffer = Buffer.concat(parts);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  const decode = DECODERS[encoding];
  if (decode !== undefined) buffer = decode(buffer);
  return buffer.toString('utf8');
}

/** Parses JSON, or returns the raw text when it is not JSON (and undefined when empty). */
export function parseJsonLoosely(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
