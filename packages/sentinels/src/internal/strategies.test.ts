import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { event } from '../../test/helpers.js';
import { createBatcher } from './strategies.js';

const e = (n: number) => event('tool.result', {}, n);

describe('createBatcher()', () => {
  let fired: HankweaveEvent[][];
  beforeEach(() => {
    fired = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const fire = (events: HankweaveEvent[]) => fired.push(events);

  it('debounce fires once after the quiet period, restarting on every event', () => {
    const b = createBatcher({ strategy: 'debounce', milliseconds: 100 }, fire, Date.now);
    b.add([e(1)]);
    vi.advanceTimersByTime(80);
    b.add([e(2)]);
    vi.advanceTimersByTime(80);
    expect(fired).toHaveLength(0);
    vi.advanceTimersByTime(20);
    expect(fired.map((x) => x.length)).toEqual([2]);
  });

  it('timeWindow fires on absolute boundaries, only when events are pending', () => {
    const b = createBatcher({ strategy: 'timeWindow', milliseconds: 100 }, fire, Date.now);
    vi.advanceTimersByTime(30);
    b.add([e(1)]);
    vi.advanceTimersByTime(69);
    b.add([e(2)]);
    expect(fired).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(fired.map((x) => x.length)).toEqual([2]);
    vi.advanceTimersByTime(500);
    expect(fired).toHaveLength(1);
    b.add([e(3)]);
    vi.advanceTimersByTime(100);
    expect(fired.map((x) => x.length)).toEqual([2, 1]);
  });

  it('count fires full batches and flush sends the partial one', () => {
    const b = createBatcher({ strategy: 'count', threshold: 2 }, fire, Date.now);
    for (let n = 0; n < 5; n++) b.add([e(n)]);
    expect(fired.map((x) => x.length)).toEqual([2, 2]);
    b.flush();
    expect(fired.map((x) => x.length)).toEqual([2, 2, 1]);
  });

  it('stop forgets pending events and disarms timers', () => {
    const b = createBatcher({ strategy: 'debounce', milliseconds: 10 }, fire, Date.now);
    b.add([e(1)]);
    b.stop();
    vi.advanceTimersByTime(100);
    b.flush();
    expect(fired).toHaveLength(0);
  });
});
