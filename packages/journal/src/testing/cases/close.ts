import { describe, expect, it } from 'vitest';
import { type ConformanceContext, collect } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

export function closeCases(context: ConformanceContext): void {
  describe('flush() and close()', () => {
    it('flush resolves and keeps every event readable', async () => {
      const journal = context.journal();
      await journal.appendMany([infoEvent(0), infoEvent(1)]);
      await journal.flush();
      expect(await journal.getTotalEvents()).toBe(2);
    });

    it('completes appends that were still pending when close was called', async () => {
      const journal = context.journal();
      const pending = Array.from({ length: 20 }, (_, i) => journal.append(infoEvent(i)));
      await journal.close();
      await expect(Promise.all(pending)).resolves.toHaveLength(20);
    });

    it('refuses appends and reads after close with JOURNAL_CLOSED', async () => {
      const journal = context.journal();
      await journal.close();
      expect(journal.closed).toBe(true);
      const closed = { code: 'JOURNAL_CLOSED' };
      await expect(journal.append(infoEvent(0))).rejects.toMatchObject(closed);
      await expect(journal.appendMany([infoEvent(0)])).rejects.toMatchObject(closed);
      await expect(journal.getMostRecentEvents(5)).rejects.toMatchObject(closed);
      await expect(journal.getTotalEvents()).rejects.toMatchObject(closed);
      await expect(journal.getEventsAfter(undefined, 5)).rejects.toMatchObject(closed);
      await expect(journal.streamAllEvents()).rejects.toMatchObject(closed);
      await expect(collect(journal.getAllEvents())).rejects.toMatchObject(closed);
    });

    it('can be closed twice', async () => {
      const journal = context.journal();
      await journal.close();
      await expect(journal.close()).resolves.toBeUndefined();
    });
  });
}
