import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileJournal, openJournalReadOnly } from '../../create-journal.js';
import { encodeCursor } from '../../internal/cursor.js';
import { collect } from '../../testing/conformance-context.js';
import { infoEvent } from '../../testing/sample-events.js';
import { hashText } from './journal-index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function journalDir() {
  const { path: dir, cleanup } = await makeTempDir('journal-test-');
  cleanups.push(cleanup);
  const path = join(dir, 'events', 'events.jsonl');
  return { dir, path, indexPath: `${path}.idx` };
}

/** Lines as an older runtime would append them: straight to the file, no sidecar update. */
const rawLines = (from: number, count: number): string =>
  Array.from(
    { length: count },
    (_, i) => `${JSON.stringify({ id: `evt_raw${from + i}`, ...infoEvent(from + i) })}\n`,
  ).join('');

describe('FileEventStorage sidecar index', () => {
  it('writes events.jsonl.idx on close and trusts it at the next open', async () => {
    const { dir, indexPath } = await journalDir();
    const journal = await createFileJournal({ hankweaveDir: dir });
    await journal.appendMany(Array.from({ length: 50 }, (_, i) => infoEvent(i)));
    await journal.close();
    const sidecar = JSON.parse(await readFile(indexPath, 'utf8'));
    expect(sidecar).toMatchObject({ version: 1, lines: 50, events: 50, corruptLines: 0 });
    const reopened = await createFileJournal({ hankweaveDir: dir });
    expect(await reopened.stats()).toMatchObject({ indexRebuilds: 0, totalEvents: 50 });
    await reopened.close();
  });

  it('counts lines an older runtime appended without updating the index', async () => {
    const { dir, path } = await journalDir();
    const journal = await createFileJournal({ hankweaveDir: dir });
    await journal.appendMany(Array.from({ length: 20 }, (_, i) => infoEvent(i)));
    await journal.close();
    await appendFile(path, rawLines(20, 15));
    const reopened = await createFileJournal({ hankweaveDir: dir });
    expect(await reopened.getTotalEvents()).toBe(35);
    expect((await reopened.stats()).indexRebuilds).toBe(1);
    expect((await reopened.getMostRecentEvents(1)).events[0]?.id).toBe('evt_raw34');
    await reopened.close();
  });

  it('rebuilds an index that disagrees with the file', async () => {
    const { dir, path } = await journalDir();
    const journal = await createFileJournal({ hankweaveDir: dir });
    await journal.appendMany(Array.from({ length: 20 }, (_, i) => infoEvent(i)));
    await journal.close();
    // Same size, different last line: the sidecar's hash of the last line no longer matches.
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace(/"event 19"/, '"event 91"'));
    const reopened = await createFileJournal({ hankweaveDir: dir });
    expect(await reopened.stats()).toMatchObject({ indexRebuilds: 1, totalEvents: 20 });
    await reopened.close();
  });

  it.each([
    ['missing', null],
    ['malformed', '{"version":1,"lines":'],
    ['claiming more lines', '{"version":1,"byteLength":5,"lines":999}'],
  ])('rebuilds a %s index', async (_, content) => {
    const { dir, indexPath } = await journalDir();
    const journal = await createFileJournal({ hankweaveDir: dir });
    await journal.appendMany(Array.from({ length: 10 }, (_, i) => infoEvent(i)));
    await journal.close();
    if (content === null) await rm(indexPath);
    else await writeFile(indexPath, content);
    const reopened = await createFileJournal({ hankweaveDir: dir });
    expect(await reopened.stats()).toMatchObject({ indexRebuilds: 1, totalEvents: 10 });
    await reopened.close();
  });
});

describe('FileEventStorage reads while another process appends', () => {
  it('sees new lines, but never an unfinished last line', async () => {
    const { dir, path } = await journalDir();
    const writer = await createFileJournal({ hankweaveDir: dir, durability: 'none' });
    await writer.appendMany(Array.from({ length: 5 }, (_, i) => infoEvent(i)));
    const reader = await openJournalReadOnly(path);
    expect(await reader.getTotalEvents()).toBe(5);
    await writer.append(infoEvent(5));
    expect(await reader.getTotalEvents()).toBe(6);
    await writer.close();
    // Another process is half way through writing a line.
    const line = rawLines(6, 1);
    await appendFile(path, line.slice(0, 40));
    expect(await reader.getTotalEvents()).toBe(6);
    const recent = await reader.getMostRecentEvents(2);
    expect(recent.events.map((event) => event.id)).toEqual([
      expect.stringMatching(/^evt_/),
      expect.stringMatching(/^evt_/),
    ]);
    expect(recent.events.at(-1)?.data).toEqual({ message: 'event 5' });
    expect(await collect(reader.getAllEvents())).toHaveLength(6);
    await appendFile(path, line.slice(40));
    expect(await reader.getTotalEvents()).toBe(7);
    expect((await reader.getMostRecentEvents(1)).events[0]?.id).toBe('evt_raw6');
    await reader.close();
  });
});

describe('FileEventStorage cursors', () => {
  it('pages across offset checkpoints and refuses positions that are not line starts', async () => {
    const { dir } = await journalDir();
    const journal = await createFileJournal({ hankweaveDir: dir, durability: 'none' });
    const stored = await journal.appendMany(
      Array.from({ length: 2600 }, (_, i) => infoEvent(i % 60)),
    );
    const seen: HankweaveEvent[] = [];
    let cursor: string | undefined;
    const cursors: string[] = [];
    for (;;) {
      const page = await journal.getEventsAfter(cursor, 512);
      seen.push(...page.events);
      cursor = page.nextCursor;
      cursors.push(cursor);
      if (!page.hasMore) break;
    }
    expect(seen.map((event) => event.id)).toEqual(stored.map((event) => event.id));
    // Line 1024 is a checkpoint: its cursor must carry exactly that checkpoint's offset.
    const page = await journal.getEventsAfter(cursors[1], 1);
    expect(page.events[0]?.id).toBe(stored[1024]?.id);
    const lineLength = Buffer.byteLength(JSON.stringify(stored[0])) + 1;
    const firstLine = (await readFile(join(dir, 'events', 'events.jsonl'), 'utf8')).split('\n')[0];
    const hash = hashText(firstLine as string);
    // Lines have different lengths (event 0..59), so offset = line × length is off somewhere.
    const forged = [
      encodeCursor({ line: 1024, offset: 1024 * lineLength + 1, epoch: hash }),
      encodeCursor({ line: 1500, offset: 3, epoch: hash }),
      encodeCursor({ line: 2601, offset: 10, epoch: hash }),
      encodeCursor({ line: 0, offset: 5, epoch: '' }),
    ];
    for (const bad of forged) {
      await expect(journal.getEventsAfter(bad, 1)).rejects.toMatchObject({
        code: 'JOURNAL_BAD_CURSOR',
      });
    }
    await journal.close();
  });
});

describe('FileEventStorage sidecar index with altered numbers (found by the fuzz tests)', () => {
  it('rebuilds it instead of refusing cursors checked against a wrong line offset', async () => {
    const { dir, path, indexPath } = await journalDir();
    const journal = await createFileJournal({ hankweaveDir: dir });
    await journal.appendMany(Array.from({ length: 5 }, (_, i) => infoEvent(i)));
    await journal.close();
    // A plausible sidecar: checkpoints[0] moved to the start of line 1, every other check holds.
    const sidecar = JSON.parse(await readFile(indexPath, 'utf8'));
    sidecar.checkpoints[0] = (await readFile(path, 'utf8')).indexOf('\n') + 1;
    await writeFile(indexPath, JSON.stringify(sidecar));
    const reopened = await createFileJournal({ hankweaveDir: dir });
    const first = await reopened.getEventsAfter(undefined, 1);
    // Before: JOURNAL_BAD_CURSOR ("offset does not match the line") for the journal's own cursor.
    const second = await reopened.getEventsAfter(first.nextCursor, 10);
    expect(second.events).toHaveLength(4);
    expect((await reopened.stats()).indexRebuilds).toBe(1);
    await reopened.close();
  });
});
