import type { FileHandle } from 'node:fs/promises';
import { type ScanEnd, splitLines } from '../../internal/line-splitter.js';
import { parseEventLine } from '../../internal/parse-line.js';
import { readChunks } from './file-chunks.js';
import { type JournalIndex, recordLine } from './journal-index.js';

/** Called for each corrupt line a scan finds. */
export type CorruptLineHandler = (line: { lineNumber: number; offset: number }) => void;

/**
 * Extends `index` with the complete lines between `index.byteLength` and `fileSize`, parsing each
 * one to tell events from corrupt lines. This is how an index catches up with lines appended by
 * another process or an older runtime that did not maintain the sidecar. Returns the number of
 * bytes after the last newline (an unfinished line, left for later).
 */
export async function extendIndex(
  handle: FileHandle,
  index: JournalIndex,
  fileSize: number,
  onCorrupt: CorruptLineHandler,
): Promise<number> {
  let scanEnd: ScanEnd | undefined;
  const lines = splitLines(
    readChunks(handle, index.byteLength, fileSize),
    { lineNumber: index.lines, offset: index.byteLength },
    (end) => {
      scanEnd = end;
    },
  );
  for await (const line of lines) {
    const valid = parseEventLine(line.text, line.lineNumber) !== undefined;
    if (!valid) onCorrupt({ lineNumber: line.lineNumber, offset: line.offset });
    recordLine(index, line.text, line.byteLength, valid);
  }
  return scanEnd?.partialBytes ?? 0;
}
