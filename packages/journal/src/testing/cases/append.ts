import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { type ConformanceContext, collect } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

export function appendCases(context: ConformanceContext): void {
  describe('append()', () => {
    it('assigns an evt_ id when the event has none and returns the stored event', async () => {
      const stored = await context.journal().append(infoEvent(1));
      expect(stored.id).toMatch(/^evt_[0-9a-z]+$/);
      expect(stored).toEqual({ id: stored.id, ...infoEvent(1) });
      expect(await collect(context.journal().getAllEvents())).toEqual([stored]);
    });

    it('keeps an id the caller supplied', async () => {
      const stored = await context.journal().append({ id: 'evt_given', ...infoEvent(1) });
      expect(stored.id).toBe('evt_given');
      const [read] = await collect(context.journal().getAllEvents());
      expect(read?.id).toBe('evt_given');
    });

    it('gives every event a distinct id', async () => {
      const stored = await Promise.all(
        Array.from({ length: 30 }, (_, i) => context.journal().append(infoEvent(i))),
      );
      expect(new Set(stored.map((event) => event.id)).size).toBe(30);
    });

    it('keeps fields the schema does not know (journals from other versions carry them)', async () => {
      const event = {
        ...infoEvent(1),
        runId: 'run_1',
        data: { message: 'hi', modelId: 'claude-x', nested: { a: [1, 2] } },
      };
      const stored = await context.journal().append(event);
      const [read] = await collect(context.journal().getAllEvents());
      expect(read).toEqual({ ...event, id: stored.id });
    });

    it('keeps call order when callers do not await each other', async () => {
      const journal = context.journal();
      const pending: Promise<HankweaveEvent>[] = [];
      for (let i = 0; i < 50; i++) pending.push(journal.append(infoEvent(i)));
      const stored = await Promise.all(pending);
      const read = await collect(journal.getAllEvents());
      expect(read.map((event) => event.id)).toEqual(stored.map((event) => event.id));
      expect(read.map((event) => event.timestamp)).toEqual(
        Array.from({ length: 50 }, (_, i) => infoEvent(i).timestamp),
      );
    });

    it('interleaves single and bulk appends in call order', async () => {
      const journal = context.journal();
      const first = journal.append(infoEvent(0));
      const bulk = journal.appendMany([infoEvent(1), infoEvent(2), infoEvent(3)]);
      const last = journal.append(infoEvent(4));
      await Promise.all([first, bulk, last]);
      const read = await collect(journal.getAllEvents());
      expect(read.map((event) => (event.data as { message: string }).message)).toEqual([
        'event 0',
        'event 1',
        'event 2',
        'event 3',
        'event 4',
      ]);
    });
  });

  describe('appendMany()', () => {
    it('stores every event in order and returns them with ids', async () => {
      const events = Array.from({ length: 40 }, (_, i) => infoEvent(i));
      const stored = await context.journal().appendMany(events);
      expect(stored).toHaveLength(40);
      expect(await collect(context.journal().getAllEvents())).toEqual(stored);
    });

    it('does nothing for an empty list', async () => {
      expect(await context.journal().appendMany([])).toEqual([]);
      expect(await context.journal().getTotalEvents()).toBe(0);
    });
  });
}
