import { describe, expect, it } from 'vitest';
import { type ConformanceContext, collect } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

export function getAllEventsCases(context: ConformanceContext): void {
  describe('getAllEvents()', () => {
    it('yields nothing for an empty journal', async () => {
      expect(await collect(context.journal().getAllEvents())).toEqual([]);
    });

    it('yields every event in append order, as stored', async () => {
      const journal = context.journal();
      const stored = await journal.appendMany(Array.from({ length: 25 }, (_, i) => infoEvent(i)));
      expect(await collect(journal.getAllEvents())).toEqual(stored);
    });

    it('yields the events present when iteration began, not those appended during it', async () => {
      const journal = context.journal();
      const stored = await journal.appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
      const seen = [];
      for await (const event of journal.getAllEvents()) {
        seen.push(event);
        if (seen.length === 1) await journal.append(infoEvent(3));
      }
      expect(seen).toEqual(stored);
      expect(await journal.getTotalEvents()).toBe(4);
    });

    it('can be left early, and the journal keeps working', async () => {
      const journal = context.journal();
      await journal.appendMany(Array.from({ length: 10 }, (_, i) => infoEvent(i)));
      for await (const event of journal.getAllEvents()) {
        expect(event.type).toBe('info');
        break;
      }
      await journal.append(infoEvent(10));
      expect(await journal.getTotalEvents()).toBe(11);
    });

    it('returns copies: changing a yielded event does not change the journal', async () => {
      const journal = context.journal();
      await journal.append(infoEvent(0));
      for await (const event of journal.getAllEvents()) {
        (event.data as { message: string }).message = 'changed';
      }
      const [event] = await collect(journal.getAllEvents());
      expect(event?.data).toEqual({ message: 'event 0' });
    });
  });
}
