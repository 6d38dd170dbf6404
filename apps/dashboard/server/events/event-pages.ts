import type { EventJournal } from '@hankweave/journal';
import type { HankweaveEvent } from '@hankweave/types';
import type { EventPageWire } from '../../src/api/types.js';
import { HttpError } from '../http/http-error.js';
import type { EventFilter, EventIndex } from './event-index.js';
import { lowerBound } from './postings.js';

/** One `GET …/events` request, parsed. */
export interface EventQuery {
  /** Forward paging: a cursor from a previous page (journal `jc1.` or index `ix.`). */
  after?: string;
  /** Tail first: '' for the newest events, or a cursor from a previous tail page (older ones). */
  before?: string;
  limit: number;
  filter: EventFilter;
}

const INDEX_CURSOR = 'ix.';
const indexCursor = (ordinal: number): string => `${INDEX_CURSOR}${ordinal}`;

/** The ordinal of an `ix.` cursor; anything else is a 400 naming the cursor. */
function ordinalOf(cursor: string, count: number): number {
  const ordinal = Number(cursor.slice(INDEX_CURSOR.length));
  if (!cursor.startsWith(INDEX_CURSOR) || !Number.isSafeInteger(ordinal) || ordinal < 0)
    throw new HttpError(
      400,
      'BAD_CURSOR',
      `${cursor} is not a cursor of this filtered or tail view`,
      'Pass back the nextCursor of the same query; start again without after/before.',
    );
  return Math.min(ordinal, count);
}

const filtered = (filter: EventFilter): boolean =>
  filter.codon !== undefined || (filter.types?.length ?? 0) > 0;

/**
 * A page of events. Unfiltered forward pages go straight to the journal with its own cursors
 * (O(limit)); the newest page of an unfiltered tail is `getMostRecentEvents` (O(limit)).
 * Filtered pages, and tail pages further back, use the execution's `EventIndex` and `ix.`
 * cursors (ordinals). In tail mode `nextCursor` leads to the next older page (pass it as
 * `before`) and `hasMore` says whether older matching events exist.
 */
export async function eventPage(
  journal: EventJournal,
  index: EventIndex,
  query: EventQuery,
): Promise<EventPageWire> {
  const { after, before, limit, filter } = query;
  if (before === undefined && !filtered(filter) && !after?.startsWith(INDEX_CURSOR)) {
    const page = await journal.getEventsAfter(after || undefined, limit);
    return { ...page, total: await journal.getTotalEvents() };
  }
  if (before === '' && !filtered(filter)) {
    const recent = await journal.getMostRecentEvents(limit);
    return {
      events: recent.events,
      nextCursor: indexCursor(recent.totalEvents - recent.events.length),
      hasMore: recent.hasMore,
      total: recent.totalEvents,
    };
  }
  await index.refresh();
  const count = index.count;
  const matching = index.matching(filter);
  const total = matching?.length ?? count;
  const ordinalAt = (position: number): number =>
    matching ? (matching[position] as number) : position;
  const positionOf = (ordinal: number): number =>
    matching ? lowerBound(matching, ordinal) : ordinal;

  if (before !== undefined) {
    const end = positionOf(before === '' ? count : ordinalOf(before, count));
    const start = Math.max(0, end - limit);
    const ordinals = range(start, end).map(ordinalAt);
    return {
      events: await index.read(ordinals),
      nextCursor: indexCursor(ordinals[0] ?? 0),
      hasMore: start > 0,
      total,
    };
  }
  if (after !== undefined && after !== '' && !after.startsWith(INDEX_CURSOR))
    throw new HttpError(
      400,
      'BAD_CURSOR',
      'A journal cursor cannot continue a filtered view',
      'Keep the filter (codon, types) the same between pages, or start again without after.',
    );
  const start = positionOf(after ? ordinalOf(after, count) : 0);
  const end = Math.min(total, start + limit);
  const ordinals = range(start, end).map(ordinalAt);
  const events: HankweaveEvent[] = await index.read(ordinals);
  const hasMore = end < total;
  const last = ordinals[ordinals.length - 1];
  return {
    events,
    nextCursor: indexCursor(hasMore && last !== undefined ? last + 1 : count),
    hasMore,
    total,
  };
}

function range(start: number, end: number): number[] {
  const values: number[] = [];
  for (let value = start; value < end; value++) values.push(value);
  return values;
}

/**
 * The journal cursor a page cursor stands for: a journal cursor as it is, an `ix.` cursor
 * through the index; none (undefined) is the journal's current end.
 */
export async function journalCursorOf(
  index: EventIndex,
  cursor: string | undefined,
): Promise<string | undefined> {
  if (cursor !== undefined && cursor !== '' && !cursor.startsWith(INDEX_CURSOR)) return cursor;
  await index.refresh();
  if (cursor === undefined || cursor === '') return index.endCursor;
  return index.cursorAt(ordinalOf(cursor, index.count));
}
