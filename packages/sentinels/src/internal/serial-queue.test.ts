import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

describe('SerialQueue', () => {
  it('works one item at a time, drops the oldest beyond the limit, and reports the drop', async () => {
    const worked: number[] = [];
    const dropped: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const queue = new SerialQueue<number>(
      async (item) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        worked.push(item);
        inFlight -= 1;
      },
      {
        maxItems: 2,
        maxWeight: 100,
        weight: () => 1,
        onDrop: (item, why) => dropped.push(`${item}: ${why}`),
      },
    );
    for (const item of [1, 2, 3, 4]) queue.push(item);
    expect(worked).toEqual([]); // push never runs the worker synchronously
    await queue.idle();
    expect(worked).toEqual([3, 4]);
    expect(dropped).toEqual(['1: more than 2 triggers', '2: more than 2 triggers']);
    expect(maxInFlight).toBe(1);
  });

  it('drops the oldest items when the queued events exceed maxWeight', async () => {
    const dropped: number[] = [];
    const queue = new SerialQueue<number>(async () => {}, {
      maxItems: 10,
      maxWeight: 5,
      weight: (item) => item,
      onDrop: (item) => dropped.push(item),
    });
    for (const item of [3, 2, 4]) queue.push(item);
    await queue.idle();
    expect(dropped).toEqual([3, 2]);
  });
});
