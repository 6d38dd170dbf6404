import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { type Fs, writeFileAtomic } from '@hankweave/durable-io';

/** Lines between two offset checkpoints of the sidecar index. */
export const CHECKPOINT_EVERY = 1024;

/**
 * What the journal knows about its file without reading it: the sidecar `events.jsonl.idx`.
 * Everything here can be rebuilt by scanning the file; the sidecar only saves that scan.
 */
export interface JournalIndex {
  /** Bytes of complete lines covered (always ends right after a newline). */
  byteLength: number;
  lines: number;
  events: number;
  corruptLines: number;
  checkpointEvery: number;
  /** `checkpoints[i]` is the byte offset of line `i * checkpointEvery`. */
  checkpoints: number[];
  lastLineOffset: number;
  /** Text of the last line (kept in memory only, hashed into the sidecar). */
  lastLineText: string;
  /** Short hash of the first line: the journal's identity, embedded in cursors. */
  firstLineHash: string;
}

interface StoredIndex extends Omit<JournalIndex, 'lastLineText'> {
  version: 1;
  lastLineHash: string;
  /** Hash of every other field as written: a sidecar changed in any way is not trusted. */
  check: string;
}

/** The checksum of a sidecar's fields, in the order they were written. */
const checksumOf = (fields: Record<string, unknown>): string => hashText(JSON.stringify(fields));

export const emptyIndex = (): JournalIndex => ({
  byteLength: 0,
  lines: 0,
  events: 0,
  corruptLines: 0,
  checkpointEvery: CHECKPOINT_EVERY,
  checkpoints: [],
  lastLineOffset: 0,
  lastLineText: '',
  firstLineHash: '',
});

export const hashText = (text: string): string =>
  createHash('sha1').update(text).digest('hex').slice(0, 16);

/** Accounts for one complete line at `offset` (the next one after everything indexed). */
export function recordLine(
  index: JournalIndex,
  text: string,
  byteLength: number,
  valid: boolean,
): void {
  if (index.lines % index.checkpointEvery === 0) index.checkpoints.push(index.byteLength);
  if (index.lines === 0) index.firstLineHash = hashText(text);
  index.lastLineOffset = index.byteLength;
  index.lastLineText = text;
  index.byteLength += byteLength;
  index.lines += 1;
  if (valid) index.events += 1;
  else index.corruptLines += 1;
}

/**
 * Writes the sidecar atomically (temp file + rename), so a reader never sees half of it. It is a
 * rebuildable cache, so it is deliberately not fsynced (`fsync: false`, no directory fsync
 * either): a lost or stale sidecar is detected at the next open and rebuilt from the journal.
 */
export async function saveIndex(fs: Fs, path: string, index: JournalIndex): Promise<void> {
  const { lastLineText, ...rest } = index;
  const fields = { version: 1 as const, ...rest, lastLineHash: hashText(lastLineText) };
  const stored: StoredIndex = { ...fields, check: checksumOf(fields) };
  await writeFileAtomic(path, JSON.stringify(stored), { fs, fsync: false });
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Loads the sidecar and checks it against the journal: its checksum must match its fields, and
 * the prefix it covers must still be there (same size or larger, and the bytes of its last line
 * hash to what it recorded). Returns `undefined` when it is missing, malformed, altered or
 * disagrees, so the caller rescans.
 */
export async function loadIndex(
  fs: Fs,
  path: string,
  journal: FileHandle,
  fileSize: number,
): Promise<JournalIndex | undefined> {
  let stored: Partial<StoredIndex>;
  try {
    stored = JSON.parse(await fs.readFile(path, 'utf8')) as Partial<StoredIndex>;
  } catch {
    return undefined;
  }
  // The checks below catch a sidecar that disagrees with the journal; the checksum catches one
  // whose numbers were changed (a cursor checked against a wrong line offset would be refused).
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { check, ...fields } = stored;
  if (check !== checksumOf(fields)) return undefined;
  const { byteLength, lines, events, corruptLines, checkpointEvery, lastLineOffset } = stored;
  const checkpoints = stored.checkpoints;
  if (
    stored.version !== 1 ||
    !isCount(byteLength) ||
    !isCount(lines) ||
    !isCount(events) ||
    !isCount(corruptLines) ||
    !isCount(checkpointEvery) ||
    checkpointEvery === 0 ||
    !isCount(lastLineOffset) ||
    events + corruptLines !== lines ||
    typeof stored.firstLineHash !== 'string' ||
    typeof stored.lastLineHash !== 'string' ||
    !Array.isArray(checkpoints) ||
    checkpoints.length !== Math.ceil(lines / checkpointEvery) ||
    !checkpoints.every(isCount) ||
    byteLength > fileSize ||
    (lines === 0) !== (byteLength === 0) ||
    lastLineOffset >= Math.max(byteLength, 1)
  ) {
    return undefined;
  }
  let lastLineText = '';
  if (byteLength > 0) {
    const length = byteLength - lastLineOffset;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await journal.read(buffer, 0, length, lastLineOffset);
    if (bytesRead !== length || buffer[length - 1] !== 10) return undefined;
    if (lastLineOffset > 0) {
      const before = Buffer.alloc(1);
      await journal.read(before, 0, 1, lastLineOffset - 1);
      if (before[0] !== 10) return undefined;
    }
    lastLineText = buffer.toString('utf8', 0, length - 1);
    if (hashText(lastLineText) !== stored.lastLineHash) return undefined;
  }
  return {
    byteLength,
    lines,
    events,
    corruptLines,
    checkpointEvery,
    checkpoints: checkpoints as number[],
    lastLineOffset,
    lastLineText,
    firstLineHash: stored.firstLineHash,
  };
}
