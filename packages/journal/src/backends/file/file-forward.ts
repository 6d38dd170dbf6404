import type { FileHandle } from 'node:fs/promises';
import type { HankweaveEvent } from '@hankweave/types';
import { splitLines } from '../../internal/line-splitter.js';
import { parseEventLine } from '../../internal/parse-line.js';
import { readChunks } from './file-chunks.js';

/** A line position: the next line to read and the byte offset it starts at. */
export interface LinePosition {
  line: number;
  offset: number;
}

const PAGE_CHUNK_BYTES = 256 * 1024;

/**
 * Up to `limit` events from `from` to `byteLength`, oldest first. Corrupt lines after the last
 * returned event are consumed, so `hasMore` is exact: true only when another event follows.
 */
export async function readPage(
  handle: FileHandle,
  from: LinePosition,
  byteLength: number,
  limit: number,
): Promise<{ events: HankweaveEvent[]; next: LinePosition; hasMore: boolean }> {
  const events: HankweaveEvent[] = [];
  let next = { ...from };
  let hasMore = false;
  const lines = splitLines(readChunks(handle, from.offset, byteLength, PAGE_CHUNK_BYTES), {
    lineNumber: from.line,
    offset: from.offset,
  });
  for await (const line of lines) {
    const event = parseEventLine(line.text, line.lineNumber);
    if (event && events.length >= limit) {
      hasMore = true;
      break;
    }
    if (event) events.push(event);
    next = { line: line.lineNumber + 1, offset: line.offset + line.byteLength };
  }
  return { events, next, hasMore };
}

/** Every event of `[0, byteLength)`, oldest first, one at a time. */
export async function* readEvents(
  handle: FileHandle,
  byteLength: number,
): AsyncGenerator<HankweaveEvent, void, undefined> {
  for await (const line of splitLines(readChunks(handle, 0, byteLength), {
    lineNumber: 0,
    offset: 0,
  })) {
    const event = parseEventLine(line.text, line.lineNumber);
    if (event) yield event;
  }
}
