import { describe, expect, it } from 'vitest';
import { type ConformanceContext, collect } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

export function capacityCases(context: ConformanceContext): void {
  describe('capacity', () => {
    it('keeps the newest events, at most maxEvents, when bounded', async ({ skip }) => {
      const journal = context.journal();
      const max = journal.backend.capabilities.maxEvents;
      if (max === undefined) return skip('unbounded backend');
      const appended = max + Math.ceil(max / 2);
      const stored = await journal.appendMany(
        Array.from({ length: appended }, (_, i) => infoEvent(i)),
      );
      const kept = await collect(journal.getAllEvents());
      expect(kept.length).toBeLessThanOrEqual(max);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept).toEqual(stored.slice(-kept.length));
      expect(await journal.getTotalEvents()).toBe(kept.length);
      const stats = await journal.stats();
      expect(stats.trimmedEvents + kept.length).toBe(appended);
      const recent = await journal.getMostRecentEvents(appended);
      expect(recent).toEqual({ events: kept, totalEvents: kept.length, hasMore: false });
    });

    it('resumes a cursor into the trimmed part at the oldest kept event', async ({ skip }) => {
      const journal = context.journal();
      const max = journal.backend.capabilities.maxEvents;
      if (max === undefined) return skip('unbounded backend');
      await journal.append(infoEvent(0));
      const { nextCursor } = await journal.getEventsAfter(undefined, 1);
      const stored = await journal.appendMany(
        Array.from({ length: max * 2 }, (_, i) => infoEvent(i + 1)),
      );
      const page = await journal.getEventsAfter(nextCursor, 3);
      const kept = await collect(journal.getAllEvents());
      expect(page.events).toEqual(kept.slice(0, 3));
      expect(kept.at(-1)).toEqual(stored.at(-1));
    });

    it('keeps every event when unbounded', async ({ skip }) => {
      const journal = context.journal();
      if (journal.backend.capabilities.maxEvents !== undefined) return skip('bounded backend');
      await journal.appendMany(Array.from({ length: 250 }, (_, i) => infoEvent(i)));
      expect(await journal.getTotalEvents()).toBe(250);
      expect((await journal.stats()).trimmedEvents).toBe(0);
    });
  });
}
