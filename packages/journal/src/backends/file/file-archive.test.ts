import { readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileJournal, openJournalReadOnly } from '../../create-journal.js';
import type { JournalWarning } from '../../journal-backend.js';
import { collect, readText } from '../../testing/conformance-context.js';
import { infoEvent, sampleRun } from '../../testing/sample-events.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const { path: dir, cleanup } = await makeTempDir('journal-test-');
  cleanups.push(cleanup);
  const warnings: JournalWarning[] = [];
  const journal = await createFileJournal({
    hankweaveDir: dir,
    onWarning: (warning) => warnings.push(warning),
  });
  cleanups.unshift(() => journal.close().catch(() => undefined));
  return { dir, path: join(dir, 'events', 'events.jsonl'), journal, warnings };
}

describe('FileEventStorage archiving (seed 003 "Archiving Old Journals")', () => {
  it('starts a new journal on the next append after the file was moved away', async () => {
    const { dir, path, journal, warnings } = await setup();
    const old = await journal.appendMany([infoEvent(0), infoEvent(1)]);
    const archived = join(dir, 'run-1.jsonl');
    await rename(path, archived);
    const next = await journal.append(infoEvent(2));
    expect(await collect(journal.getAllEvents())).toEqual([next]);
    expect(await journal.stats()).toMatchObject({ recreations: 1, totalEvents: 1 });
    expect(warnings.map((warning) => warning.kind)).toContain('journal-recreated');
    // Nothing was written into the archive after it moved.
    const archive = (await readFile(archived, 'utf8')).trim().split('\n');
    expect(archive.map((line) => JSON.parse(line))).toEqual(old);
  });

  it('reads an empty journal while the file is gone, before the next append', async () => {
    const { path, journal } = await setup();
    await journal.appendMany([infoEvent(0), infoEvent(1)]);
    await rm(path);
    expect(await journal.getTotalEvents()).toBe(0);
    expect(await journal.getMostRecentEvents(5)).toEqual({
      events: [],
      totalEvents: 0,
      hasMore: false,
    });
    expect(await readText(await journal.streamAllEvents())).toBe('');
    await journal.append(infoEvent(2));
    expect(await journal.getTotalEvents()).toBe(1);
  });

  it('starts over when the file was truncated in place', async () => {
    const { path, journal } = await setup();
    await journal.appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
    await truncate(path, 0);
    const next = await journal.append(infoEvent(3));
    expect(await collect(journal.getAllEvents())).toEqual([next]);
  });

  it('refuses a cursor of the journal that was archived', async () => {
    const { dir, path, journal } = await setup();
    await journal.appendMany([infoEvent(0), infoEvent(1), infoEvent(2)]);
    const { nextCursor } = await journal.getEventsAfter(undefined, 2);
    await rename(path, join(dir, 'old.jsonl'));
    await journal.appendMany([infoEvent(3), infoEvent(4), infoEvent(5)]);
    await expect(journal.getEventsAfter(nextCursor, 5)).rejects.toMatchObject({
      code: 'JOURNAL_BAD_CURSOR',
    });
  });

  describe('a gzipped journal (gzip .hankweave/events/events.jsonl)', () => {
    async function gzipped() {
      const context = await setup();
      const stored = await context.journal.appendMany(sampleRun());
      const { nextCursor } = await context.journal.getEventsAfter(undefined, 10);
      await context.journal.flush();
      const bytes = await readFile(context.path);
      const gzPath = `${context.path}.gz`;
      await writeFile(gzPath, gzipSync(bytes));
      await rm(context.path);
      return { ...context, stored, nextCursor, bytes, gzPath };
    }

    it('is recreated as a new journal by the next append', async () => {
      const { journal } = await gzipped();
      const next = await journal.append(infoEvent(0));
      expect(await collect(journal.getAllEvents())).toEqual([next]);
    });

    it('opens read-only with the same API', async () => {
      const { stored, nextCursor, bytes, gzPath } = await gzipped();
      const archive = await openJournalReadOnly(gzPath);
      expect(await collect(archive.getAllEvents())).toEqual(stored);
      expect(await archive.getTotalEvents()).toBe(22);
      expect(await archive.getMostRecentEvents(4)).toEqual({
        events: stored.slice(-4),
        totalEvents: 22,
        hasMore: true,
      });
      expect(await readText(await archive.streamAllEvents())).toBe(bytes.toString('utf8'));
      // A cursor taken on the live journal stays valid on its archive.
      const page = await archive.getEventsAfter(nextCursor, 5);
      expect(page.events).toEqual(stored.slice(10, 15));
      const rest = await archive.getEventsAfter(page.nextCursor, 100);
      expect(rest.events).toEqual(stored.slice(15));
      expect(rest.hasMore).toBe(false);
      expect(archive.backend.capabilities.readOnly).toBe(true);
      await expect(archive.append(infoEvent(0))).rejects.toMatchObject({
        code: 'JOURNAL_READ_ONLY',
      });
      await archive.close();
    });

    it('yields the complete lines of a truncated archive', async () => {
      const { gzPath } = await gzipped();
      const full = await readFile(gzPath);
      await writeFile(gzPath, full.subarray(0, Math.floor(full.length * 0.7)));
      const archive = await openJournalReadOnly(gzPath);
      const events = await collect(archive.getAllEvents());
      expect(events.length).toBe(await archive.getTotalEvents());
      expect(events.length).toBeLessThan(22);
      await archive.close();
    });

    it('fails with JOURNAL_OPEN_FAILED for a missing archive', async () => {
      const { dir } = await setup();
      await expect(openJournalReadOnly(join(dir, 'missing.jsonl.gz'))).rejects.toMatchObject({
        code: 'JOURNAL_OPEN_FAILED',
      });
    });
  });
});
