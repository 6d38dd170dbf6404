import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileJournal } from '../../create-journal.js';
import type { EventJournal } from '../../event-journal.js';
import { collect } from '../../testing/conformance-context.js';
import { infoEvent } from '../../testing/sample-events.js';
import type { FileEventStorageOptions } from './file-options.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function open(options: Omit<FileEventStorageOptions, 'hankweaveDir' | 'fs'> = {}) {
  const { path: dir, cleanup } = await makeTempDir('journal-test-');
  // Counts file-handle writes and fsyncs; tests arm it to fail the next ones.
  const fs = createFaultyFs();
  const journal = await createFileJournal({ hankweaveDir: dir, fs, ...options });
  cleanups.push(cleanup, () => journal.close().catch(() => undefined));
  return { journal, fs, path: join(dir, 'events', 'events.jsonl') };
}

/** Resolves with the ids appended, in the order their appends resolved. */
function trackAcks(journal: EventJournal, count: number) {
  const acked: string[] = [];
  const pending = Array.from({ length: count }, (_, i) =>
    journal.append({ id: `evt_${i}`, ...infoEvent(i) }).then((event) => acked.push(event.id)),
  );
  return { acked, done: Promise.all(pending) };
}

describe('FileEventStorage durability modes', () => {
  it('fsync: each awaited append is fsynced before it resolves', async () => {
    const { journal, fs } = await open({ durability: 'fsync' });
    const before = fs.calls('fsync');
    for (let i = 0; i < 5; i++) {
      const syncs = fs.calls('fsync');
      await journal.append(infoEvent(i));
      expect(fs.calls('fsync')).toBeGreaterThan(syncs);
    }
    expect(fs.calls('fsync') - before).toBe(5);
  });

  it('fsync: concurrent appends share writes and fsyncs (group commit), acked in order', async () => {
    const { journal, fs } = await open({ durability: 'fsync' });
    const writes = fs.calls('write');
    const syncs = fs.calls('fsync');
    const { acked, done } = trackAcks(journal, 200);
    await done;
    expect(acked).toEqual(Array.from({ length: 200 }, (_, i) => `evt_${i}`));
    expect(fs.calls('write') - writes).toBeLessThan(200);
    expect(fs.calls('fsync') - syncs).toBe(fs.calls('write') - writes);
  });

  it('batched: appends resolve only once their batch is fsynced', async () => {
    // The timer is far away: only the event count can trigger the fsync here.
    const { journal, fs } = await open({ batchMaxEvents: 50, batchIntervalMs: 60_000 });
    // After a quiet period an append is fsynced at once; the next fsync may only come 60 s later.
    await journal.append({ id: 'evt_lone', ...infoEvent(0) });
    const syncs = fs.calls('fsync');
    const first = trackAcks(journal, 49);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(first.acked).toEqual([]);
    expect(fs.calls('fsync')).toBe(syncs);
    await journal.append(infoEvent(49));
    await first.done;
    expect(fs.calls('fsync')).toBe(syncs + 1);
    expect(first.acked).toEqual(Array.from({ length: 49 }, (_, i) => `evt_${i}`));
  });

  it('batched: an append right after an fsync is fsynced when the interval has passed', async () => {
    const { journal, fs } = await open({ batchIntervalMs: 5 });
    const syncs = fs.calls('fsync');
    await journal.append(infoEvent(0));
    await journal.append(infoEvent(1));
    expect(fs.calls('fsync')).toBe(syncs + 2);
  });

  it('none: appends never fsync; flush() does', async () => {
    const { journal, fs } = await open({ durability: 'none' });
    const syncs = fs.calls('fsync');
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append(infoEvent(i))));
    expect(fs.calls('fsync')).toBe(syncs);
    await journal.flush();
    expect(fs.calls('fsync')).toBe(syncs + 1);
  });

  it('bulk: appendMany writes in chunks of bulkChunkEvents lines', async () => {
    const { journal, fs } = await open({ durability: 'fsync', bulkChunkEvents: 1000 });
    const writes = fs.calls('write');
    const stored = await journal.appendMany(
      Array.from({ length: 2500 }, (_, i) => infoEvent(i % 60)),
    );
    expect(fs.calls('write') - writes).toBe(3);
    expect(await journal.getTotalEvents()).toBe(2500);
    expect((await journal.getMostRecentEvents(1)).events).toEqual(stored.slice(-1));
  });
});

describe('FileEventStorage write failures', () => {
  it('rejects with JOURNAL_WRITE_FAILED, leaves no partial line, and keeps working', async () => {
    const { journal, fs, path } = await open({ durability: 'fsync' });
    const first = await journal.append(infoEvent(0));
    fs.arm({ failAt: 'write', times: 1, partialBytes: 17, code: 'EIO' });
    await expect(journal.append(infoEvent(1))).rejects.toMatchObject({
      code: 'JOURNAL_WRITE_FAILED',
    });
    // The 17 bytes that did reach the file were taken back at once.
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(first)}\n`);
    const third = await journal.append(infoEvent(2));
    expect(await collect(journal.getAllEvents())).toEqual([first, third]);
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual([first, third]);
  });

  it('stops accepting appends after a failed fsync', async () => {
    const { journal, fs } = await open({ durability: 'fsync' });
    fs.arm({ failAt: 'fsync', times: 1, code: 'EIO' });
    await expect(journal.append(infoEvent(0))).rejects.toMatchObject({
      code: 'JOURNAL_WRITE_FAILED',
    });
    await expect(journal.append(infoEvent(1))).rejects.toMatchObject({
      code: 'JOURNAL_WRITE_FAILED',
    });
    await expect(journal.flush()).rejects.toMatchObject({ code: 'JOURNAL_WRITE_FAILED' });
  });
});
