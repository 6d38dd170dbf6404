import { eventCodonId } from '@hankweave/inspection';
import { type EventJournal, JournalError } from '@hankweave/journal';
import type { HankweaveEvent } from '@hankweave/types';
import { Column, Postings } from './postings.js';

/** Events per page: the unit of the cursor table and of every read by ordinal. */
export const INDEX_PAGE = 256;

/** Which events a query keeps (each part optional; all given must hold). */
export interface EventFilter {
  /** A codon record: its codon id and time window (see `codonWindow`). */
  codon?: { codonId: string; fromMs: number; toMs: number };
  /** Event types; a trailing `*` matches a prefix (`codon.*`). */
  types?: readonly string[];
}

const timeOf = (event: HankweaveEvent): number => {
  const ms = Date.parse(event.timestamp);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
};

/**
 * A per-execution index of the journal, built on first use by one pass of `getEventsAfter` pages
 * and extended incrementally afterwards: the cursor of every `INDEX_PAGE`-th event, and per codon
 * id and per type the ordinals of their events. Keyed on the journal's size: when it shrinks or a
 * cursor is refused (the journal was archived and recreated), the index is rebuilt from scratch.
 * Reads by ordinal fetch only the pages that hold them, so a per-codon page never scans the
 * journal again.
 */
export class EventIndex {
  readonly #journal: EventJournal;
  /** `#pageCursors[p]` starts the page of ordinals `[p × INDEX_PAGE, (p + 1) × INDEX_PAGE)`. */
  #pageCursors: (string | undefined)[] = [undefined];
  #endCursor: string | undefined;
  #count = 0;
  #byCodon = new Map<string, Postings>();
  #byType = new Map<string, Column<Uint32Array>>();
  #typeIds = new Map<string, number>();
  #chain: Promise<void> = Promise.resolve();
  /** How many events were read to build and extend the index (for the report and tests). */
  scanned = 0;

  constructor(journal: EventJournal) {
    this.#journal = journal;
  }

  /** Events indexed so far: ordinals are `0 … count - 1`. */
  get count(): number {
    return this.#count;
  }

  /** The journal cursor right after the last indexed event (undefined: the journal's start). */
  get endCursor(): string | undefined {
    return this.#endCursor;
  }

  /** The journal cursor right before ordinal `ordinal` (at most `count`). */
  async cursorAt(ordinal: number): Promise<string | undefined> {
    const target = Math.max(0, Math.min(ordinal, this.#count));
    if (target === this.#count) return this.#endCursor;
    const page = Math.floor(target / INDEX_PAGE);
    const skip = target - page * INDEX_PAGE;
    const start = this.#pageCursors[page];
    if (skip === 0) return start;
    return (await this.#journal.getEventsAfter(start, skip)).nextCursor;
  }

  /** Brings the index up to the journal's current end (one caller at a time). */
  refresh(): Promise<void> {
    const next = this.#chain.then(() => this.#extend());
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #extend(): Promise<void> {
    const total = await this.#journal.getTotalEvents();
    if (total < this.#count) this.#reset();
    if (total === this.#count) return;
    try {
      await this.#scan();
    } catch (error) {
      if (!JournalError.is(error, 'JOURNAL_BAD_CURSOR')) throw error;
      this.#reset();
      await this.#scan();
    }
  }

  async #scan(): Promise<void> {
    for (;;) {
      // Page-aligned reads keep every INDEX_PAGE-th cursor exact.
      const wanted = INDEX_PAGE - (this.#count % INDEX_PAGE);
      const page = await this.#journal.getEventsAfter(this.#endCursor, wanted);
      for (const event of page.events) this.#add(event);
      this.scanned += page.events.length;
      this.#endCursor = page.nextCursor;
      if (page.events.length === wanted) this.#pageCursors.push(page.nextCursor);
      if (!page.hasMore || page.events.length === 0) return;
    }
  }

  #add(event: HankweaveEvent): void {
    const ordinal = this.#count++;
    let typeId = this.#typeIds.get(event.type);
    if (typeId === undefined) {
      typeId = this.#typeIds.size;
      this.#typeIds.set(event.type, typeId);
      this.#byType.set(event.type, new Column((size) => new Uint32Array(size)));
    }
    this.#byType.get(event.type)?.push(ordinal);
    const codonId = eventCodonId(event);
    if (codonId === undefined) return;
    let postings = this.#byCodon.get(codonId);
    if (!postings) {
      postings = new Postings();
      this.#byCodon.set(codonId, postings);
    }
    postings.add(ordinal, timeOf(event), typeId);
  }

  #reset(): void {
    this.#pageCursors = [undefined];
    this.#endCursor = undefined;
    this.#count = 0;
    this.#byCodon = new Map();
    this.#byType = new Map();
    this.#typeIds = new Map();
  }

  /** The type ids a list of types (with `prefix*` patterns) selects. */
  #matchingTypes(types: readonly string[]): Set<number> {
    const ids = new Set<number>();
    for (const [type, id] of this.#typeIds) {
      if (
        types.some((wanted) =>
          wanted.endsWith('*') ? type.startsWith(wanted.slice(0, -1)) : type === wanted,
        )
      )
        ids.add(id);
    }
    return ids;
  }

  /**
   * The ordinals of the events a filter keeps, ascending (call `refresh()` first). Without a
   * filter, undefined: every ordinal below `count` matches.
   */
  matching(filter: EventFilter): number[] | undefined {
    const types = filter.types?.length ? this.#matchingTypes(filter.types) : undefined;
    if (filter.codon) {
      const { codonId, fromMs, toMs } = filter.codon;
      const postings = this.#byCodon.get(codonId);
      const kept: number[] = [];
      if (!postings) return kept;
      for (let i = 0; i < postings.length; i++) {
        const time = postings.times.at(i);
        if (time < fromMs || time >= toMs) continue;
        if (types && !types.has(postings.types.at(i))) continue;
        kept.push(postings.ordinals.at(i));
      }
      return kept;
    }
    if (!types) return undefined;
    const kept: number[] = [];
    for (const [type, id] of this.#typeIds) {
      if (!types.has(id)) continue;
      const column = this.#byType.get(type) as Column<Uint32Array>;
      for (let i = 0; i < column.length; i++) kept.push(column.at(i));
    }
    return kept.sort((a, b) => a - b);
  }

  /** The events at these ordinals (ascending, each below `count`), reading only their pages. */
  async read(ordinals: readonly number[]): Promise<HankweaveEvent[]> {
    const events: HankweaveEvent[] = [];
    let position = 0;
    while (position < ordinals.length) {
      const page = Math.floor((ordinals[position] as number) / INDEX_PAGE);
      const start = page * INDEX_PAGE;
      let last = position;
      while (
        last + 1 < ordinals.length &&
        Math.floor((ordinals[last + 1] as number) / INDEX_PAGE) === page
      )
        last += 1;
      const limit = (ordinals[last] as number) - start + 1;
      const { events: pageEvents } = await this.#journal.getEventsAfter(
        this.#pageCursors[page],
        limit,
      );
      for (let i = position; i <= last; i++) {
        const event = pageEvents[(ordinals[i] as number) - start];
        if (event) events.push(event);
      }
      position = last + 1;
    }
    return events;
  }

  /** The events of ordinals `[from, to)`. */
  readRange(from: number, to: number): Promise<HankweaveEvent[]> {
    const ordinals: number[] = [];
    for (let ordinal = Math.max(0, from); ordinal < Math.min(to, this.#count); ordinal++)
      ordinals.push(ordinal);
    return this.read(ordinals);
  }
}
