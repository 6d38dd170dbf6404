import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useFixture } from '@hankweave/durable-io/testing';
import {
  eventSchema,
  type HankweaveEvent,
  isJournaledEvent,
  JOURNALED_EVENT_TYPES,
  snapshotCodonId,
} from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileJournal, openJournalReadOnly } from '../src/create-journal.js';
import { collect } from '../src/testing/conformance-context.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// A journal in the original runtime's shapes (reference §3.3 and compatibility.md): every
// journaled event type, `state.snapshot` with codon execution records, `budgetExceeded: null`,
// a duplicated line, the v0.10 `rollback.archiveRestore` quirk, both `file.updated` forms.
// Event types hankweave added (seed 004's plateau decisions): the original never wrote them.
const HANKWEAVE_ADDITIONS = new Set(['loop.iteration.decision']);

async function originalJournal() {
  const { path: dir, cleanup } = await useFixture(fixtures, 'original-run', 'journal-original-');
  cleanups.push(cleanup);
  return { dir, path: join(dir, 'events', 'events.jsonl') };
}

describe("the original runtime's journals", () => {
  it('covers every journaled event type (so the checks below prove something)', async () => {
    const { path } = await originalJournal();
    const types = new Set(
      (await readFile(path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { type: string }).type),
    );
    expect(
      [...JOURNALED_EVENT_TYPES].filter(
        (type) => !types.has(type) && !HANKWEAVE_ADDITIONS.has(type),
      ),
    ).toEqual([]);
  });

  it('reads every line, and every event passes the typed event schema', async () => {
    const { dir, path } = await originalJournal();
    const lineCount = (await readFile(path, 'utf8')).trim().split('\n').length;
    const journal = await createFileJournal({ hankweaveDir: dir });
    const events = await collect(journal.getAllEvents());
    await journal.close();
    expect(events).toHaveLength(lineCount);
    const rejected = events
      .map((event) => ({ type: event.type, result: eventSchema.safeParse(event) }))
      .filter(({ result }) => !result.success)
      .map(({ type, result }) => `${type}: ${result.error?.issues[0]?.path.join('.')}`);
    expect(rejected).toEqual([]);
    expect(events.every((event) => isJournaledEvent(event))).toBe(true);
  });

  it('reads state.snapshot codon records and the id-only form to the same codon ids', async () => {
    const { path } = await originalJournal();
    const journal = await openJournalReadOnly(path);
    const snapshots = (await collect(journal.getAllEvents())).filter(
      (event) => event.type === 'state.snapshot',
    ) as HankweaveEvent<'state.snapshot'>[];
    await journal.close();
    expect(snapshots.length).toBeGreaterThan(0);
    const first = eventSchema.parse(snapshots[0]) as HankweaveEvent<'state.snapshot'>;
    expect(first.data.completedCodons.map(snapshotCodonId)).toEqual(['observe']);
    expect(first.data.currentCodon && snapshotCodonId(first.data.currentCodon)).toBe('write');
    // What hankweave wrote before records: ids, and `null` for no current codon.
    const idOnly = eventSchema.parse({
      ...first,
      data: { ...first.data, currentCodon: null, completedCodons: ['observe', 'write#0'] },
    }) as HankweaveEvent<'state.snapshot'>;
    expect(idOnly.data.completedCodons.map(snapshotCodonId)).toEqual(['observe', 'write#0']);
  });
});
