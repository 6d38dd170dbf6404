import { describe, expect, it } from 'vitest';
import { type ConformanceContext, collect } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

export function getTotalEventsCases(context: ConformanceContext): void {
  describe('getTotalEvents()', () => {
    it('is 0 for an empty journal', async () => {
      expect(await context.journal().getTotalEvents()).toBe(0);
    });

    it('counts single and bulk appends', async () => {
      const journal = context.journal();
      await journal.append(infoEvent(0));
      await journal.appendMany(Array.from({ length: 12 }, (_, i) => infoEvent(i + 1)));
      expect(await journal.getTotalEvents()).toBe(13);
    });

    it('equals the number of events getAllEvents() yields and stats().totalEvents', async () => {
      const journal = context.journal();
      await journal.appendMany(Array.from({ length: 17 }, (_, i) => infoEvent(i)));
      const total = await journal.getTotalEvents();
      expect((await collect(journal.getAllEvents())).length).toBe(total);
      expect((await journal.stats()).totalEvents).toBe(total);
      expect((await journal.stats()).corruptLines).toBe(0);
    });
  });
}
