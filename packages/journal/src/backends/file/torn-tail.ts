import type { FileHandle } from 'node:fs/promises';
import { lastLineStart } from '@hankweave/durable-io';
import { isEventLine } from '../../internal/parse-line.js';

/** What `repairTornTail` did to the end of the file. */
export interface TailRepair {
  /** The file size after the repair. */
  size: number;
  /** `terminated`: the tail was a whole event missing its newline, which was added. */
  action: 'none' | 'terminated' | 'truncated';
  /** Bytes of the tail that was removed or terminated. */
  tailBytes: number;
}

/**
 * Repairs a file whose last line has no newline (a write cut short by a crash). A tail that parses
 * as a complete event is kept and terminated, because it is a whole line; anything else was never
 * acknowledged (appends resolve only after the newline is written), so it is truncated. Complete
 * lines are never touched. The repair is fsynced before the journal accepts new appends, so a new
 * line can never be glued to a torn one.
 */
export async function repairTornTail(handle: FileHandle, size: number): Promise<TailRepair> {
  if (size === 0) return { size, action: 'none', tailBytes: 0 };
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 10) return { size, action: 'none', tailBytes: 0 };
  const tailStart = await lastLineStart(handle, size);
  const tail = Buffer.alloc(size - tailStart);
  await handle.read(tail, 0, tail.length, tailStart);
  if (isEventLine(tail.toString('utf8'))) {
    await handle.write('\n');
    await handle.sync();
    return { size: size + 1, action: 'terminated', tailBytes: tail.length };
  }
  await handle.truncate(tailStart);
  await handle.sync();
  return { size: tailStart, action: 'truncated', tailBytes: tail.length };
}
