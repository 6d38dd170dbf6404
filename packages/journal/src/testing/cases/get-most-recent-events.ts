import { describe, expect, it } from 'vitest';
import type { ConformanceContext } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

const messages = (events: { data: unknown }[]) =>
  events.map((event) => (event.data as { message: string }).message);

export function getMostRecentEventsCases(context: ConformanceContext): void {
  describe('getMostRecentEvents()', () => {
    it('returns nothing for an empty journal', async () => {
      expect(await context.journal().getMostRecentEvents(50)).toEqual({
        events: [],
        totalEvents: 0,
        hasMore: false,
      });
    });

    it('returns the newest events oldest first, with the total and hasMore', async () => {
      const journal = context.journal();
      await journal.appendMany(Array.from({ length: 30 }, (_, i) => infoEvent(i)));
      const recent = await journal.getMostRecentEvents(5);
      expect(messages(recent.events)).toEqual([
        'event 25',
        'event 26',
        'event 27',
        'event 28',
        'event 29',
      ]);
      expect(recent.totalEvents).toBe(30);
      expect(recent.hasMore).toBe(true);
    });

    it('returns everything with hasMore false when the limit covers the journal', async () => {
      const journal = context.journal();
      const stored = await journal.appendMany(Array.from({ length: 8 }, (_, i) => infoEvent(i)));
      expect(await journal.getMostRecentEvents(8)).toEqual({
        events: stored,
        totalEvents: 8,
        hasMore: false,
      });
      expect((await journal.getMostRecentEvents(100)).events).toEqual(stored);
    });

    it('returns the same events as the end of getAllEvents()', async () => {
      const journal = context.journal();
      const stored = await journal.appendMany(Array.from({ length: 20 }, (_, i) => infoEvent(i)));
      expect((await journal.getMostRecentEvents(7)).events).toEqual(stored.slice(-7));
    });

    it('returns no events for limit 0, and says whether any exist', async () => {
      const journal = context.journal();
      expect(await journal.getMostRecentEvents(0)).toEqual({
        events: [],
        totalEvents: 0,
        hasMore: false,
      });
      await journal.append(infoEvent(0));
      expect(await journal.getMostRecentEvents(0)).toEqual({
        events: [],
        totalEvents: 1,
        hasMore: true,
      });
    });

    it.each([-1, 1.5, Number.NaN])('rejects limit %s with JOURNAL_BAD_ARGUMENT', async (limit) => {
      await expect(context.journal().getMostRecentEvents(limit)).rejects.toMatchObject({
        code: 'JOURNAL_BAD_ARGUMENT',
      });
    });
  });
}
