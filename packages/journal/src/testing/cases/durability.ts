import { describe, expect, it } from 'vitest';
import { type ConformanceContext, collect } from '../conformance-context.js';
import { infoEvent, sampleRun } from '../sample-events.js';

export function durabilityCases(context: ConformanceContext): void {
  describe.runIf(context.harness.reopen)('durability', () => {
    it('keeps every acknowledged event, in order and with its id, after reopen', async () => {
      const stored = await context.journal().appendMany(sampleRun());
      stored.push(await context.journal().append(infoEvent(99)));
      const reopened = await context.reopen();
      expect(await collect(reopened.getAllEvents())).toEqual(stored);
      expect(await reopened.getTotalEvents()).toBe(stored.length);
      expect((await reopened.getMostRecentEvents(3)).events).toEqual(stored.slice(-3));
    });

    it('keeps events appended without awaiting, once close resolved', async () => {
      const journal = context.journal();
      const pending = Array.from({ length: 30 }, (_, i) => journal.append(infoEvent(i)));
      const reopened = await context.reopen();
      const stored = await Promise.all(pending);
      expect(await collect(reopened.getAllEvents())).toEqual(stored);
    });

    it('appends after the existing events once reopened', async () => {
      const first = await context.journal().appendMany([infoEvent(0), infoEvent(1)]);
      const reopened = await context.reopen();
      const next = await reopened.append(infoEvent(2));
      expect(await collect(reopened.getAllEvents())).toEqual([...first, next]);
    });

    it('accepts a cursor taken before the reopen', async () => {
      const stored = await context.journal().appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
      const { nextCursor } = await context.journal().getEventsAfter(undefined, 1);
      const reopened = await context.reopen();
      expect((await reopened.getEventsAfter(nextCursor, 5)).events).toEqual(stored.slice(1));
    });

    it('reports a persistent backend', () => {
      expect(context.journal().backend.capabilities.persistent).toBe(true);
    });
  });
}
