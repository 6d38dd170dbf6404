import type { FileHandle } from 'node:fs/promises';
import { JournalError } from '../../errors.js';
import type { CursorPosition } from '../../internal/cursor.js';
import type { JournalIndex } from './journal-index.js';

/**
 * Checks a decoded cursor against the journal in O(1): it must belong to this journal (same
 * first line), lie within it, agree with the sparse line → offset checkpoints, and point just
 * after a newline. A cursor from before an archive, from another execution or edited by hand is
 * refused instead of returning events from the middle of a line.
 * @throws {JournalError} JOURNAL_BAD_CURSOR when any check fails.
 */
export async function checkCursor(
  handle: FileHandle | undefined,
  index: JournalIndex,
  position: CursorPosition,
  cursor: string,
): Promise<void> {
  const bad = (reason: string) =>
    new JournalError('JOURNAL_BAD_CURSOR', `Journal cursor rejected: ${reason}`, {
      details: { cursor, reason },
    });
  const { line, offset, epoch } = position;
  if (line === 0) {
    if (offset !== 0) throw bad('offset does not match the line');
    return;
  }
  if (epoch !== index.firstLineHash) throw bad('the cursor belongs to another journal');
  if (line > index.lines || offset > index.byteLength) throw bad('the cursor is past the end');
  if (line === index.lines) {
    if (offset !== index.byteLength) throw bad('offset does not match the line');
    return;
  }
  const every = index.checkpointEvery;
  const segment = Math.floor(line / every);
  const segmentStart = index.checkpoints[segment] as number;
  const segmentEnd =
    segment + 1 < index.checkpoints.length
      ? (index.checkpoints[segment + 1] as number)
      : index.byteLength;
  const consistent =
    line % every === 0 ? offset === segmentStart : offset > segmentStart && offset < segmentEnd;
  if (!consistent) throw bad('offset does not match the line');
  const before = Buffer.alloc(1);
  await handle?.read(before, 0, 1, offset - 1);
  if (before[0] !== 10) throw bad('offset is not at the start of a line');
}
