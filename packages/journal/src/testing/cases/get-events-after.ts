import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import type { EventJournal } from '../../event-journal.js';
import type { ConformanceContext } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

async function pageThrough(journal: EventJournal, limit: number) {
  const events: HankweaveEvent[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await journal.getEventsAfter(cursor, limit);
    events.push(...page.events);
    pages.push(page.events.length);
    cursor = page.nextCursor;
    if (!page.hasMore) return { events, pages, cursor };
  }
}

export function getEventsAfterCases(context: ConformanceContext): void {
  describe('getEventsAfter()', () => {
    it('returns an empty last page with a cursor for an empty journal', async () => {
      const page = await context.journal().getEventsAfter(undefined, 10);
      expect(page.events).toEqual([]);
      expect(page.hasMore).toBe(false);
      expect(typeof page.nextCursor).toBe('string');
    });

    it('pages through every event in order, with hasMore false on the last page', async () => {
      const journal = context.journal();
      const stored = await journal.appendMany(Array.from({ length: 45 }, (_, i) => infoEvent(i)));
      const { events, pages } = await pageThrough(journal, 7);
      expect(events).toEqual(stored);
      expect(pages).toEqual([7, 7, 7, 7, 7, 7, 3]);
    });

    it('says hasMore false when the last page is exactly full', async () => {
      const journal = context.journal();
      await journal.appendMany(Array.from({ length: 10 }, (_, i) => infoEvent(i)));
      const page = await journal.getEventsAfter(null, 10);
      expect(page.events).toHaveLength(10);
      expect(page.hasMore).toBe(false);
    });

    it('starts from the beginning for an undefined, null or empty cursor', async () => {
      const journal = context.journal();
      const stored = await journal.appendMany([infoEvent(0), infoEvent(1)]);
      for (const cursor of [undefined, null, '']) {
        expect((await journal.getEventsAfter(cursor, 5)).events).toEqual(stored);
      }
    });

    it('returns only events appended later when given the final cursor (tailing)', async () => {
      const journal = context.journal();
      await journal.appendMany([infoEvent(0), infoEvent(1)]);
      const { cursor } = await pageThrough(journal, 10);
      expect((await journal.getEventsAfter(cursor, 10)).events).toEqual([]);
      const added = await journal.appendMany([infoEvent(2), infoEvent(3)]);
      const page = await journal.getEventsAfter(cursor, 10);
      expect(page.events).toEqual(added);
      expect(page.hasMore).toBe(false);
    });

    it('follows an empty journal from its first event on', async () => {
      const journal = context.journal();
      const first = await journal.getEventsAfter(undefined, 5);
      const stored = await journal.append(infoEvent(0));
      expect((await journal.getEventsAfter(first.nextCursor, 5)).events).toEqual([stored]);
    });

    it.each(['not-a-cursor', 'jc1.', 'jc1.!!!'])(
      'rejects the malformed cursor %j with JOURNAL_BAD_CURSOR',
      async (cursor) => {
        await expect(context.journal().getEventsAfter(cursor, 5)).rejects.toMatchObject({
          code: 'JOURNAL_BAD_CURSOR',
        });
      },
    );

    it('rejects an altered cursor with JOURNAL_BAD_CURSOR', async () => {
      const journal = context.journal();
      await journal.appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
      const { nextCursor } = await journal.getEventsAfter(undefined, 1);
      const body = Buffer.from(nextCursor.slice(4), 'base64url').toString('utf8');
      const altered = `jc1.${Buffer.from(body.replace(/^1:/, '2:')).toString('base64url')}`;
      expect(altered).not.toBe(nextCursor);
      await expect(journal.getEventsAfter(altered, 5)).rejects.toMatchObject({
        code: 'JOURNAL_BAD_CURSOR',
      });
    });

    it('rejects a cursor of another journal with JOURNAL_BAD_CURSOR', async () => {
      const other = await context.createOther();
      await other.appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
      const { nextCursor } = await other.getEventsAfter(undefined, 2);
      const journal = context.journal();
      await journal.appendMany([infoEvent(5), infoEvent(6), infoEvent(7)]);
      await expect(journal.getEventsAfter(nextCursor, 5)).rejects.toMatchObject({
        code: 'JOURNAL_BAD_CURSOR',
      });
    });

    it.each([0, -1, 2.5])('rejects limit %s with JOURNAL_BAD_ARGUMENT', async (limit) => {
      await expect(context.journal().getEventsAfter(undefined, limit)).rejects.toMatchObject({
        code: 'JOURNAL_BAD_ARGUMENT',
      });
    });
  });
}
