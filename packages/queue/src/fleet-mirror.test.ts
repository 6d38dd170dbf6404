import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileJournal, type EventJournal, MemoryEventStorage } from '@hankweave/journal';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FleetMirror } from './fleet-mirror.js';

const info = (message: string) => ({
  type: 'info' as const,
  timestamp: new Date().toISOString(),
  data: { message },
});

/** A memory backend that stays readable after the mirror closes it. */
class KeptStorage extends MemoryEventStorage {
  closed = false;
  override async close(): Promise<void> {
    this.closed = true;
  }
}

/** Every event a memory backend holds, in order. */
async function held(storage: MemoryEventStorage): Promise<HankweaveEvent[]> {
  const events: HankweaveEvent[] = [];
  for await (const event of storage.readAll()) events.push(event);
  return events;
}

describe('FleetMirror', () => {
  let executionDir: string;
  let file: EventJournal;
  const errors: unknown[] = [];
  const openMirror = (storage: KeptStorage) =>
    FleetMirror.open({ journal: () => storage }, executionDir, (error) => errors.push(error));

  beforeEach(async () => {
    executionDir = join(mkdtempSync(join(tmpdir(), 'hw-mirror-')), 'exec-1');
    mkdirSync(join(executionDir, '.hankweave', 'events'), { recursive: true });
    file = await createFileJournal({
      path: join(executionDir, '.hankweave', 'events', 'events.jsonl'),
    });
    errors.length = 0;
  });
  afterEach(async () => {
    await file.close();
    rmSync(join(executionDir, '..'), { recursive: true, force: true });
  });

  it('copies what the file journal holds, in order, and back-fills what a dead worker never copied', async () => {
    await Promise.all(Array.from({ length: 1_200 }, (_, n) => file.append(info(`e${n}`))));
    const inFile = await file.getEventsAfter(undefined, 10_000);
    // A first worker copied 700 events, then died.
    const storage = new KeptStorage({ maxEvents: 100_000 });
    await storage.initialize();
    await storage.append(inFile.events.slice(0, 700));

    const mirror = openMirror(storage);
    mirror?.wake();
    await file.append(info('after the takeover'));
    await mirror?.close();
    expect(errors).toEqual([]);
    const ids = (await held(storage)).map((event) => event.id);
    const all = await file.getEventsAfter(undefined, 10_000);
    expect(ids).toEqual(all.events.map((event) => event.id));
    expect(ids).toHaveLength(1_201);
    expect(storage.closed).toBe(true);
  });

  it('copies nothing while the execution has no journal, and everything once it has', async () => {
    const path = join(executionDir, '.hankweave', 'events', 'events.jsonl');
    await file.close();
    rmSync(path);
    const storage = new KeptStorage({ maxEvents: 1_000 });
    const mirror = openMirror(storage);
    mirror?.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await held(storage)).toEqual([]);
    file = await createFileJournal({ path });
    await file.append(info('first'));
    await mirror?.close();
    expect((await held(storage)).map((event) => event.data)).toEqual([{ message: 'first' }]);
    expect(errors).toEqual([]);
  });

  it('reports a copy that is not a prefix of the file and leaves it untouched', async () => {
    for (let n = 0; n < 5; n++) await file.append(info(`e${n}`));
    const storage = new KeptStorage({ maxEvents: 1_000 });
    await storage.initialize();
    await storage.append([{ id: 'evt_from_elsewhere', ...info('not this execution') }]);
    const mirror = openMirror(storage);
    mirror?.wake();
    await mirror?.close();
    expect(String(errors[0])).toMatch(
      /holds 1 events that are not the first ones of .*events\.jsonl/,
    );
    expect((await held(storage)).map((event) => event.id)).toEqual(['evt_from_elsewhere']);
  });

  it('copies an event published before the file held it, with no later event to wake it', async () => {
    // The runtime publishes an event as its append starts; the append lands later (here 200 ms,
    // past the copy's first look), and a long tool call publishes nothing more.
    const storage = new KeptStorage({ maxEvents: 1_000 });
    const mirror = openMirror(storage);
    const event = { id: 'evt_late_append', ...info('a tool call starts') } as HankweaveEvent;
    mirror?.wake(event);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await file.append(event);
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && (await held(storage)).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // Checked before close, which copies the rest anyway.
    expect((await held(storage)).map((copied) => copied.id)).toEqual(['evt_late_append']);
    await mirror?.close();
    expect(errors).toEqual([]);
  });

  it('is not made when the worker has no shared backends', () => {
    expect(FleetMirror.open({}, executionDir, () => undefined)).toBeUndefined();
  });
});
