import { createMemoryJournal } from '@hankweave/journal';
import { describe, expect, it } from 'vitest';
import { BranchBus, EventBus } from './event-bus.js';

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

describe('EventBus with a durability barrier', () => {
  /** A barrier whose saves complete only when the test says so. */
  function manualBarrier() {
    let durable = true;
    const waiting: Array<() => void> = [];
    return {
      barrier: {
        isDurable: () => durable,
        flush: () =>
          durable ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)),
      },
      applyTransition() {
        durable = false;
      },
      save() {
        durable = true;
        for (const resolve of waiting.splice(0)) resolve();
      },
    };
  }

  it('publishes at once while the state is durable', () => {
    const { barrier } = manualBarrier();
    const bus = new EventBus({ barrier });
    const seen: string[] = [];
    bus.subscribe((event) => seen.push(event.type));
    bus.emit('info', { message: 'now' });
    expect(seen).toEqual(['info']);
  });

  it('holds an event, and every later one, until the state before it is saved', async () => {
    const state = manualBarrier();
    const journal = createMemoryJournal({ maxEvents: 100 });
    const bus = new EventBus({ barrier: state.barrier, sink: journal });
    const seen: string[] = [];
    bus.subscribe((event) => seen.push((event.data as { message: string }).message));
    bus.emit('info', { message: 'before' });
    state.applyTransition(); // e.g. the codon's terminal transition, not yet on disk
    bus.emit('info', { message: 'completed' });
    bus.emit('info', { message: 'after' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(['before']);
    expect(await journal.getTotalEvents()).toBe(1);
    state.save();
    await bus.drain();
    expect(seen).toEqual(['before', 'completed', 'after']);
    const stored: string[] = [];
    for await (const event of journal.getAllEvents())
      stored.push((event.data as { message: string }).message);
    expect(stored).toEqual(['before', 'completed', 'after']);
  });

  it('settles on the events emitted before the call, not on later ones', async () => {
    const state = manualBarrier();
    const bus = new EventBus({ barrier: state.barrier });
    const seen: string[] = [];
    bus.subscribe((event) => seen.push((event.data as { message: string }).message));
    state.applyTransition();
    bus.emit('info', { message: 'first' });
    const settled = bus.settled();
    let done = false;
    void settled.then(() => {
      done = true;
    });
    state.save();
    // A stream of new events behind a state that keeps changing: settled() does not wait for it.
    state.applyTransition();
    bus.emit('info', { message: 'second' });
    await settled;
    expect(done).toBe(true);
    expect(seen).toEqual(['first']);
    state.save();
    await bus.drain();
    expect(seen).toEqual(['first', 'second']);
  });

  it('reports a failed save and still publishes, so a run is never wedged', async () => {
    const errors: string[] = [];
    const bus = new EventBus({
      barrier: { isDurable: () => false, flush: () => Promise.reject(new Error('ENOSPC')) },
      onError: (_, what) => errors.push(what),
    });
    const seen: string[] = [];
    bus.subscribe((event) => seen.push(event.type));
    bus.emit('info', { message: 'x' });
    await bus.drain();
    expect(seen).toEqual(['info']);
    expect(errors).toEqual(['the state save before publishing 1 event(s)']);
  });
});

describe('BranchBus', () => {
  it("marks what a branch emits as the branch's, on the one bus, also while events wait", async () => {
    let durable = false;
    let release: () => void = () => {};
    const bus = new EventBus({
      barrier: {
        isDurable: () => durable,
        flush: () =>
          durable ? Promise.resolve() : new Promise<void>((resolve) => (release = resolve)),
      },
    });
    const left = new BranchBus(bus);
    const right = new BranchBus(bus);
    const seen: string[] = [];
    bus.subscribe((event) => {
      const data = event.data as { message: string };
      const origin = left.owns(event) ? 'left' : right.owns(event) ? 'right' : 'root';
      seen.push(`${data.message}:${origin}`);
    });
    // Held back by the barrier: the origin is known before any listener sees the event.
    left.emit('info', { message: 'a' });
    bus.emit('info', { message: 'b' });
    right.emit('info', { message: 'c' });
    expect(seen).toEqual([]);
    durable = true;
    release();
    await bus.settled();
    left.emit('info', { message: 'd' });
    expect(seen).toEqual(['a:left', 'b:root', 'c:right', 'd:left']);
  });
});
