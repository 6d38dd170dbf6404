import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useFixture } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileJournal, openJournalReadOnly } from '../../create-journal.js';
import type { JournalWarning } from '../../journal-backend.js';
import { collect, readText } from '../../testing/conformance-context.js';
import { infoEvent } from '../../testing/sample-events.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function fixture(name: string) {
  const { path: dir, cleanup } = await useFixture(fixtures, name, 'journal-test-');
  cleanups.push(cleanup);
  return { dir, path: join(dir, 'events', 'events.jsonl') };
}

const ids = (events: { id: string }[]) => events.map((event) => event.id);

describe('FileEventStorage recovery', () => {
  describe('initialize()', () => {
    it('truncates a torn last line that is not an event, keeping every complete line', async () => {
      const { dir, path } = await fixture('torn-tail');
      const warnings: JournalWarning[] = [];
      const journal = await createFileJournal({
        hankweaveDir: dir,
        onWarning: (warning) => warnings.push(warning),
      });
      expect(ids(await collect(journal.getAllEvents()))).toEqual([
        'evt_fixture000',
        'evt_fixture001',
        'evt_fixture002',
      ]);
      const stats = await journal.stats();
      expect(stats).toMatchObject({ tornLinesRepaired: 1, totalEvents: 3, corruptLines: 0 });
      expect(warnings.map((warning) => warning.kind)).toContain('torn-line-repaired');
      // The next line starts on its own line instead of being glued to the torn bytes.
      const next = await journal.append(infoEvent(3));
      await journal.close();
      const lines = (await readFile(path, 'utf8')).split('\n');
      expect(lines).toHaveLength(5);
      expect(JSON.parse(lines[3] as string).id).toBe(next.id);
    });

    it('terminates a last line that is a complete event without its newline', async () => {
      const { dir } = await fixture('complete-tail');
      const journal = await createFileJournal({ hankweaveDir: dir });
      expect(ids(await collect(journal.getAllEvents()))).toEqual([
        'evt_fixture000',
        'evt_fixture001',
        'evt_fixture002',
        'evt_fixture003',
      ]);
      expect((await journal.stats()).tornLinesRepaired).toBe(1);
      await journal.append(infoEvent(4));
      expect(await journal.getTotalEvents()).toBe(5);
      await journal.close();
    });

    it('skips and counts corrupt lines everywhere, never failing', async () => {
      const { dir } = await fixture('corrupt-lines');
      const warnings: JournalWarning[] = [];
      const journal = await createFileJournal({
        hankweaveDir: dir,
        onWarning: (warning) => warnings.push(warning),
      });
      const valid = ['evt_fixture000', 'evt_fixture002', 'evt_fixture006', 'evt_fixture008'];
      expect(ids(await collect(journal.getAllEvents()))).toEqual(valid);
      expect(await journal.getTotalEvents()).toBe(4);
      expect(ids((await journal.getMostRecentEvents(3)).events)).toEqual(valid.slice(1));
      const first = await journal.getEventsAfter(undefined, 2);
      expect(ids(first.events)).toEqual(valid.slice(0, 2));
      const second = await journal.getEventsAfter(first.nextCursor, 5);
      expect(ids(second.events)).toEqual(valid.slice(2));
      expect(second.hasMore).toBe(false);
      expect(await journal.stats()).toMatchObject({ corruptLines: 5, lines: 9, totalEvents: 4 });
      expect(warnings.filter((warning) => warning.kind === 'corrupt-line')).toHaveLength(5);
      // The raw stream is the file as it is, corrupt lines included.
      expect((await readText(await journal.streamAllEvents())).split('\n')).toHaveLength(10);
      await journal.close();
    });
  });

  describe('old and newer journals', () => {
    it('gives id-less lines deterministic ids, the same through every read and reopen', async () => {
      const { dir } = await fixture('old-runtime');
      const journal = await createFileJournal({ hankweaveDir: dir });
      const all = await collect(journal.getAllEvents());
      expect(all).toHaveLength(7);
      for (const event of all) expect(event.id).toMatch(/^evt_[0-9a-f]{20}$/);
      // Two identical lines (the original runtime sometimes wrote one twice) stay distinct.
      expect(new Set(ids(all)).size).toBe(7);
      expect(ids((await journal.getMostRecentEvents(7)).events)).toEqual(ids(all));
      expect(ids((await journal.getEventsAfter(undefined, 7)).events)).toEqual(ids(all));
      await journal.close();
      const reopened = await openJournalReadOnly(join(dir, 'events', 'events.jsonl'));
      expect(ids(await collect(reopened.getAllEvents()))).toEqual(ids(all));
      await reopened.close();
    });

    it('yields events of types this version does not know instead of dropping them', async () => {
      const { dir } = await fixture('old-runtime');
      const journal = await createFileJournal({ hankweaveDir: dir });
      const types = (await collect(journal.getAllEvents())).map((event) => event.type as string);
      expect(types).toContain('agent.reflection');
      expect(types.filter((type) => type === 'state.transition')).toHaveLength(1);
      await journal.close();
    });
  });

  describe('openJournalReadOnly()', () => {
    it('reads a torn journal without changing a byte, ignoring the unfinished line', async () => {
      const { path } = await fixture('torn-tail');
      const before = await readFile(path);
      const journal = await openJournalReadOnly(path);
      expect(await journal.getTotalEvents()).toBe(3);
      expect((await journal.getMostRecentEvents(10)).events).toHaveLength(3);
      expect((await journal.stats()).partialTailBytes).toBe(25);
      expect((await readText(await journal.streamAllEvents())).endsWith('}\n')).toBe(true);
      await expect(journal.append(infoEvent(9))).rejects.toMatchObject({
        code: 'JOURNAL_READ_ONLY',
      });
      await journal.close();
      expect(await readFile(path)).toEqual(before);
    });

    it('fails with JOURNAL_OPEN_FAILED for a missing file', async () => {
      const { dir } = await fixture('torn-tail');
      await expect(openJournalReadOnly(join(dir, 'nope.jsonl'))).rejects.toMatchObject({
        code: 'JOURNAL_OPEN_FAILED',
      });
    });
  });

  it('fails with JOURNAL_OPEN_FAILED when the journal path is a directory', async () => {
    const { dir } = await fixture('torn-tail');
    await expect(createFileJournal({ path: join(dir, 'events') })).rejects.toMatchObject({
      code: 'JOURNAL_OPEN_FAILED',
    });
  });

  it('fails with JOURNAL_BAD_ARGUMENT without a path or hankweaveDir', async () => {
    await expect(createFileJournal({})).rejects.toMatchObject({ code: 'JOURNAL_BAD_ARGUMENT' });
  });
});
