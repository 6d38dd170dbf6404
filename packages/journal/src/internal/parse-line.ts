import { createHash } from 'node:crypto';
import { eventEnvelopeSchema, type HankweaveEvent } from '@hankweave/types';

/**
 * The id given to a stored line that has none (journals written by old runtimes, seed 001's
 * sample). It depends only on the line's number and bytes, so every read, by any process, gives
 * the same event the same id; the number keeps identical duplicate lines distinct.
 */
export function deterministicEventId(lineNumber: number, text: string): string {
  return `evt_${createHash('sha1').update(`${lineNumber}\n${text}`).digest('hex').slice(0, 20)}`;
}

/**
 * Parses one stored line tolerantly: any JSON object with the event envelope (`type`,
 * `timestamp`, `data`) is an event, whatever its type, because journals from newer runtimes carry
 * types this version does not know. Returns `undefined` for a corrupt line.
 */
export function parseEventLine(text: string, lineNumber: number): HankweaveEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  // A missing or null id gets a derived one, placed first as in every written line.
  let candidate = record;
  if (record.id == null) {
    const { id: _, ...rest } = record;
    candidate = { id: deterministicEventId(lineNumber, text), ...rest };
  }
  const parsed = eventEnvelopeSchema.safeParse(candidate);
  // Unknown types are yielded under the known-event type: callers narrow on `type` anyway, and
  // `isJournaledEvent` / `eventCategoryOf` tell them whether this version knows it.
  return parsed.success ? (parsed.data as unknown as HankweaveEvent) : undefined;
}

/** True when a line parses as an event (used where only the verdict matters). */
export function isEventLine(text: string): boolean {
  return parseEventLine(text, 0) !== undefined;
}
