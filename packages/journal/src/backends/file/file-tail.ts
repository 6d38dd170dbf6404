import type { FileHandle } from 'node:fs/promises';
import type { HankweaveEvent } from '@hankweave/types';
import { parseEventLine } from '../../internal/parse-line.js';

const FIRST_WINDOW = 64 * 1024;
const MAX_WINDOW = 8 * 1024 * 1024;

/**
 * The newest `limit` events among the complete lines `[0, byteLength)`, oldest first. Reads
 * backwards in windows that start at 64 KiB and double, so the cost depends on `limit` and the
 * size of the lines read, not on the size of the journal. `lines` numbers the lines for the
 * deterministic ids of id-less lines. Corrupt lines are skipped.
 */
export async function readTail(
  handle: FileHandle,
  byteLength: number,
  lines: number,
  limit: number,
): Promise<HankweaveEvent[]> {
  const newestFirst: HankweaveEvent[] = [];
  let lineNumber = lines - 1;
  // `pending` holds bytes [pendingStart, unreadEnd) that start mid-line: the front of a line whose
  // beginning lies in the next (earlier) window.
  let pending = Buffer.alloc(0);
  let pendingStart = byteLength;
  let window = FIRST_WINDOW;
  while (newestFirst.length < limit && pendingStart > 0) {
    const start = Math.max(0, pendingStart - window);
    const fresh = Buffer.allocUnsafe(pendingStart - start);
    const { bytesRead } = await handle.read(fresh, 0, fresh.length, start);
    if (bytesRead !== fresh.length) break; // the file shrank: return what we have
    const data = pending.length > 0 ? Buffer.concat([fresh, pending]) : fresh;
    // `data` covers [start, ...) and ends with a newline; walk its lines from the end.
    let lineEnd = data.length - 1;
    while (lineEnd >= 0 && newestFirst.length < limit) {
      const previous = lineEnd === 0 ? -1 : data.lastIndexOf(10, lineEnd - 1);
      if (previous === -1 && start > 0) break; // the line starts in an earlier window
      const event = parseEventLine(data.toString('utf8', previous + 1, lineEnd), lineNumber);
      lineNumber -= 1;
      if (event) newestFirst.push(event);
      lineEnd = previous;
    }
    pending = data.subarray(0, lineEnd + 1);
    pendingStart = start;
    if (lineEnd < 0) break;
    window = Math.min(window * 2, MAX_WINDOW);
  }
  return newestFirst.reverse();
}
