import { createMemoryJournal } from '@hankweave/journal';
import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.js';

describe('EventBus', () => {
  it('journals and delivers events in emit order, without waiting for each append', async () => {
    const journal = createMemoryJournal({ maxEvents: 10_000 });
    let slowAppends = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const sink = {
      append: async (event: Parameters<typeof journal.append>[0]) => {
        slowAppends++;
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        // The journal orders concurrent appends itself; a durable one takes a while.
        const stored = journal.append(event);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return stored;
      },
    };
    const bus = new EventBus({ sink });
    const seen: string[] = [];
    bus.subscribe((event) => seen.push(event.id));
    const emitted = Array.from(
      { length: 200 },
      (_, index) => bus.emit('info', { message: `m${index}` }).id,
    );
    expect(seen).toEqual(emitted);
    await bus.drain();
    expect(slowAppends).toBe(200);
    // Appends overlap: one slow append does not hold back the ones after it.
    expect(maxInFlight).toBeGreaterThan(1);
    const stored: string[] = [];
    for await (const event of journal.getAllEvents()) stored.push(event.id);
    expect(stored).toEqual(emitted);
  });

  it('isolates a throwing listener and reports it', () => {
    const errors: string[] = [];
    const bus = new EventBus({ onError: (_, what) => errors.push(what) });
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe((event) => seen.push(event.type));
    bus.emit('info', { message: 'x' });
    expect(seen).toEqual(['info']);
    expect(errors).toEqual(['listener of info']);
  });
});
