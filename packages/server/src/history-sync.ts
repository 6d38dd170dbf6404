import type { HankweaveEvent } from '@hankweave/types';

/** Sends one `history.batch`; resolves false when the client went away (the stream stops). */
export type SendBatch = (events: HankweaveEvent[], hasMore: boolean) => Promise<boolean>;

/**
 * Streams a journal as `history.batch` messages of at most `maxBatchBytes` of serialised events
 * (an event bigger than that travels alone), in order; the last batch has `hasMore: false`, and
 * an empty journal gives one empty batch. The reference sends one event per batch; grouping keeps
 * a long journal from costing one frame per event. Memory stays at one batch: events are pulled
 * from `events` only as batches go out, and `sendBatch` waits for the client to drain.
 */
export async function streamHistory(
  events: AsyncIterable<HankweaveEvent>,
  maxBatchBytes: number,
  sendBatch: SendBatch,
): Promise<void> {
  let batch: HankweaveEvent[] = [];
  let bytes = 0;
  for await (const event of events) {
    // +1 for the comma between events in the array.
    const size = Buffer.byteLength(JSON.stringify(event)) + 1;
    if (batch.length > 0 && bytes + size > maxBatchBytes) {
      // Another event exists (this one), so this batch is not the last.
      if (!(await sendBatch(batch, true))) return;
      batch = [];
      bytes = 0;
    }
    batch.push(event);
    bytes += size;
  }
  await sendBatch(batch, false);
}
