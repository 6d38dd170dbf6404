/** One complete line of a JSONL source: its text, 0-based number and the byte offset it starts at. */
export interface SourceLine {
  text: string;
  lineNumber: number;
  offset: number;
  /** Byte length of the line including its newline. */
  byteLength: number;
}

/** Where a forward scan stopped: the next line number and offset, and the unterminated tail. */
export interface ScanEnd {
  lineNumber: number;
  offset: number;
  partialBytes: number;
}

/**
 * Splits a stream of byte chunks into complete lines. Bytes after the last newline are never
 * yielded: they are a line another writer has not finished, or a torn tail. `end` receives where
 * the scan stopped.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  start: { lineNumber: number; offset: number },
  end?: (scanEnd: ScanEnd) => void,
): AsyncGenerator<SourceLine, void, undefined> {
  let lineNumber = start.lineNumber;
  let offset = start.offset;
  let carry: Buffer | undefined;
  for await (const chunk of chunks) {
    const buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    let from = 0;
    let newline = buffer.indexOf(10, from);
    while (newline !== -1) {
      const byteLength = newline + 1 - from;
      yield { text: buffer.toString('utf8', from, newline), lineNumber, offset, byteLength };
      lineNumber += 1;
      offset += byteLength;
      from = newline + 1;
      newline = buffer.indexOf(10, from);
    }
    // Copy the remainder: `chunk` may be a reused read buffer.
    carry = from < buffer.length ? Buffer.from(buffer.subarray(from)) : undefined;
  }
  end?.({ lineNumber, offset, partialBytes: carry?.length ?? 0 });
}
