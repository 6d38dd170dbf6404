import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { createFileJournal, openJournalReadOnly } from '@hankweave/journal';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureHankweaveDir, fixtureState } from '../../test/ui/fixture-state.js';
import { codonBars } from '../derive/codon-bars.js';
import { codonWindow } from '../derive/codon-window.js';
import { EventIndex, INDEX_PAGE } from './event-index.js';
import { eventPage } from './event-pages.js';

afterEach(cleanupTempDirs);

const fixtureJournal = join(fixtureHankweaveDir('retried'), 'events', 'events.jsonl');
/** The fixture's events, read as plain JSON lines (independently of the journal package). */
const linesOf = (path: string): HankweaveEvent[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as HankweaveEvent);
const codonOf = (event: HankweaveEvent) => (event.data as { codonId?: unknown }).codonId;

/** A copy of the fixture journal in a tmp dir (fixtures are never changed in place). */
async function copiedJournal(): Promise<string> {
  const dir = (await makeTempDir('hankweave-ui-index-')).path;
  mkdirSync(join(dir, 'events'));
  copyFileSync(fixtureJournal, join(dir, 'events', 'events.jsonl'));
  return dir;
}

describe('EventIndex', () => {
  it('selects the events of one codon record by codon id and time window', async () => {
    const state = await fixtureState('retried');
    const journal = await openJournalReadOnly(fixtureJournal);
    const index = new EventIndex(journal);
    await index.refresh();
    const lines = linesOf(fixtureJournal);
    expect(index.count).toBe(lines.length);
    // polish-pass#0 failed once and was retried: each attempt gets its own events.
    const [, , failed, retried] = codonBars(state);
    for (const bar of [failed, retried]) {
      const window = codonWindow(state, bar?.key ?? '');
      if (!window) throw new Error('fixture: no window');
      const expected = lines.filter((event) => {
        const time = Date.parse(event.timestamp);
        return codonOf(event) === window.codonId && time >= window.fromMs && time < window.toMs;
      });
      const events = await index.read(index.matching({ codon: window }) ?? []);
      expect(events.map((event) => event.id)).toEqual(expected.map((event) => event.id));
      expect(expected.length).toBeGreaterThan(0);
    }
    await journal.close();
  });

  it('extends itself with what was appended since, reading only the new events', async () => {
    const dir = await copiedJournal();
    const path = join(dir, 'events', 'events.jsonl');
    const reader = await openJournalReadOnly(path);
    const index = new EventIndex(reader);
    await index.refresh();
    const before = index.count;
    const writer = await createFileJournal({ hankweaveDir: dir });
    const added = INDEX_PAGE + 10;
    await writer.appendMany(
      Array.from({ length: added }, (_, n) => ({
        type: 'info' as const,
        timestamp: new Date().toISOString(),
        data: { message: `appended ${n}` },
      })),
    );
    await writer.close();
    await index.refresh();
    expect(index.count).toBe(before + added);
    expect(index.scanned).toBe(before + added);
    const tail = await index.readRange(index.count - 2, index.count);
    expect(tail.map((event) => (event.data as { message: string }).message)).toEqual([
      `appended ${added - 2}`,
      `appended ${added - 1}`,
    ]);
    await reader.close();
  });

  it('starts again when the journal was replaced by a shorter one', async () => {
    const dir = await copiedJournal();
    const path = join(dir, 'events', 'events.jsonl');
    const reader = await openJournalReadOnly(path);
    const index = new EventIndex(reader);
    await index.refresh();
    const kept = readFileSync(path, 'utf8').split('\n').slice(0, 5).join('\n');
    writeFileSync(path, `${kept}\n`);
    await index.refresh();
    expect(index.count).toBe(5);
    expect((await index.readRange(0, 5)).map((event) => event.id)).toEqual(
      linesOf(path).map((event) => event.id),
    );
    await reader.close();
  });
});

describe('eventPage()', () => {
  it('pages forward with journal cursors, and back from the tail with index cursors', async () => {
    const journal = await openJournalReadOnly(fixtureJournal);
    const index = new EventIndex(journal);
    const ids = linesOf(fixtureJournal).map((event) => event.id);
    const forward: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await eventPage(journal, index, {
        limit: 40,
        filter: {},
        ...(after ? { after } : {}),
      });
      expect(page.total).toBe(ids.length);
      forward.push(...page.events.map((event) => event.id));
      after = page.nextCursor;
      if (!page.hasMore) break;
    }
    expect(forward).toEqual(ids);
    // Unfiltered forward reads never need the index.
    expect(index.scanned).toBe(0);

    const backward: string[] = [];
    let before = '';
    for (;;) {
      const page = await eventPage(journal, index, { limit: 40, before, filter: {} });
      backward.unshift(...page.events.map((event) => event.id));
      before = page.nextCursor;
      if (!page.hasMore) break;
    }
    expect(backward).toEqual(ids);
    await journal.close();
  });

  it('filters by type patterns, pages with index cursors and refuses a journal cursor there', async () => {
    const journal = await openJournalReadOnly(fixtureJournal);
    const index = new EventIndex(journal);
    const expected = linesOf(fixtureJournal)
      .filter((event) => event.type.startsWith('codon.') || event.type === 'tool.result')
      .map((event) => event.id);
    const filter = { types: ['codon.*', 'tool.result'] };
    const first = await eventPage(journal, index, { limit: 5, filter });
    const rest = await eventPage(journal, index, { limit: 1000, filter, after: first.nextCursor });
    expect([...first.events, ...rest.events].map((event) => event.id)).toEqual(expected);
    expect(first.total).toBe(expected.length);
    expect(rest.hasMore).toBe(false);
    const unfiltered = await eventPage(journal, index, { limit: 1, filter: {} });
    await expect(
      eventPage(journal, index, { limit: 5, filter, after: unfiltered.nextCursor }),
    ).rejects.toMatchObject({ status: 400, code: 'BAD_CURSOR' });
    await journal.close();
  });
});
