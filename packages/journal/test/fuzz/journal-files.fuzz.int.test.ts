import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  fuzzSettings,
  fuzzTimeout,
  makeTempDir,
  type TempDir,
} from '@hankweave/durable-io/testing';
import type { HankweaveEvent } from '@hankweave/types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileJournal, openJournalReadOnly } from '../../src/create-journal.js';
import { JOURNAL_ERROR_CODES, JournalError } from '../../src/errors.js';
import type { EventJournal } from '../../src/event-journal.js';
import { collect } from '../../src/testing/conformance-context.js';
import { infoEvent } from '../../src/testing/sample-events.js';
import { type Expected, expectedFrom, journalBytesArb } from './journal-bytes.js';

// Journal files of arbitrary bytes, and valid journals with garbage lines, NUL bytes, invalid
// UTF-8, huge lines and torn tails, read through every method of the file backend, read-only and
// writable, with the index sidecar kept, deleted, garbled or subtly wrong: every complete valid
// line comes back, in order, exactly once; the methods agree on counts; nothing but a coded
// JournalError may fail (and for content, nothing fails at all).

/** How the sidecar index is left before a reopen. */
type Sidecar =
  | { kind: 'keep' }
  | { kind: 'delete' }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'field'; field: string; value: number }
  | { kind: 'checkpoint'; index: number; value: number };

const sidecarArb: fc.Arbitrary<Sidecar> = fc.oneof(
  fc.constant({ kind: 'keep' as const }),
  fc.constant({ kind: 'delete' as const }),
  fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 200 }) }),
  fc.record({
    kind: fc.constant('field' as const),
    field: fc.constantFrom(
      'byteLength',
      'lines',
      'events',
      'corruptLines',
      'checkpointEvery',
      'lastLineOffset',
    ),
    value: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.nat(), fc.double()),
  }),
  fc.record({
    kind: fc.constant('checkpoint' as const),
    index: fc.nat(3),
    value: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.nat()),
  }),
);

/** Applies a sidecar variant; a field change is relative (`value` added) for small values. */
const damageSidecar = async (path: string, sidecar: Sidecar): Promise<void> => {
  if (sidecar.kind === 'keep') return;
  if (sidecar.kind === 'delete') return rm(path, { force: true });
  if (sidecar.kind === 'bytes') return writeFile(path, sidecar.bytes);
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return;
  }
  const shift = (old: unknown, value: number) =>
    Math.abs(value) <= 2 && typeof old === 'number' ? old + value : value;
  if (sidecar.kind === 'field') stored[sidecar.field] = shift(stored[sidecar.field], sidecar.value);
  else {
    const checkpoints = stored.checkpoints as number[];
    if (checkpoints.length === 0) return;
    const at = sidecar.index % checkpoints.length;
    checkpoints[at] = shift(checkpoints[at], sidecar.value);
  }
  await writeFile(path, JSON.stringify(stored));
};

const expectCoded = (error: unknown): void => {
  expect(
    JournalError.is(error),
    `not a JournalError: ${error instanceof Error ? error.stack : String(error)}`,
  ).toBe(true);
  expect(JOURNAL_ERROR_CODES).toContain((error as JournalError).code);
};

/** Runs `body`; a failure must be a coded JournalError (and is then rethrown to fail the case). */
const coded = async <T>(body: () => Promise<T>): Promise<T> => {
  try {
    return await body();
  } catch (error) {
    expectCoded(error);
    throw error;
  }
};

const bytesOf = async (stream: AsyncIterable<Buffer | string>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};

/**
 * Events as JSON text, for comparison: arbitrary lines may nest thousands of levels deep, which
 * JSON.parse reads but a recursive deep-equality overflows the stack on (seed 16016 found a
 * 2,469-level array). Deeper than JSON.stringify goes, an event is compared by id and type, and
 * the raw byte stream check below covers its content.
 */
const asText = (events: readonly HankweaveEvent[]): string[] =>
  events.map((event) => {
    try {
      return JSON.stringify(event);
    } catch {
      return `${event.id}:${event.type}:(too deep to compare as text)`;
    }
  });

/** Every read method against `expected`; `pageSize` varies the paging. */
const checkReads = async (
  journal: EventJournal,
  expected: Expected,
  path: string,
  pageSize: number,
): Promise<void> => {
  const events = expected.events;
  const n = events.length;
  expect(asText(await collect(journal.getAllEvents()))).toEqual(asText(events));
  expect(await journal.getTotalEvents()).toBe(n);
  expect(await journal.stats()).toMatchObject({
    totalEvents: n,
    lines: expected.lines,
    corruptLines: expected.corruptLines,
    byteLength: expected.byteLength,
  });
  for (const limit of new Set([0, 1, 2, pageSize, n, n + 3])) {
    const recent = await journal.getMostRecentEvents(limit);
    const shown = Math.min(limit, n);
    expect(asText(recent.events), `getMostRecentEvents(${limit})`).toEqual(
      asText(events.slice(n - shown)),
    );
    expect(recent.totalEvents).toBe(n);
    expect(recent.hasMore).toBe(n > shown);
  }
  const paged: HankweaveEvent[] = [];
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    expect(pages).toBeLessThanOrEqual(n + 1);
    const page = await journal.getEventsAfter(cursor, pageSize);
    expect(page.events.length).toBeLessThanOrEqual(pageSize);
    paged.push(...page.events);
    cursor = page.nextCursor;
    if (!page.hasMore) break;
    expect(page.events.length).toBe(pageSize);
  }
  expect(asText(paged)).toEqual(asText(events));
  // The cursor of the last page points at the end: reading on gives nothing new.
  expect((await journal.getEventsAfter(cursor, pageSize)).events).toEqual([]);
  const raw = await bytesOf(await journal.streamAllEvents());
  expect(raw.equals((await readFile(path)).subarray(0, expected.byteLength))).toBe(true);
};

let root: TempDir;
let cases = 0;
beforeAll(async () => {
  root = await makeTempDir('journal-fuzz-');
});
afterAll(async () => {
  await root.cleanup();
});

const opened: EventJournal[] = [];
const track = async (journal: Promise<EventJournal>): Promise<EventJournal> => {
  const ready = await journal;
  opened.push(ready);
  return ready;
};

/** One journal file read-only, writable, appended to, and reopened with the sidecar damaged. */
const oneCase = async (bytes: Buffer, sidecar: Sidecar, pageSize: number): Promise<void> => {
  const dir = join(root.path, `case-${cases++}`);
  await mkdir(dir);
  const path = join(dir, 'events.jsonl');
  await writeFile(path, bytes);

  // Read-only: nothing is written, the unfinished tail is ignored.
  const readOnly = await coded(() => track(openJournalReadOnly(path)));
  await coded(() => checkReads(readOnly, expectedFrom(bytes, false), path, pageSize));
  await readOnly.close();
  expect((await readFile(path)).equals(bytes)).toBe(true);

  // Writable: the tail is repaired (a whole event is kept), complete lines untouched.
  const repaired = expectedFrom(bytes, true);
  const journal = await coded(() => track(createFileJournal({ path })));
  await coded(() => checkReads(journal, repaired, path, pageSize));
  const onDisk = await readFile(path);
  expect(onDisk.length).toBe(repaired.byteLength);
  const complete = bytes.lastIndexOf(0x0a) + 1;
  expect(onDisk.subarray(0, complete).equals(bytes.subarray(0, complete))).toBe(true);

  // An append after the repair is the last event, on a line of its own.
  const appended = await coded(() => journal.append(infoEvent(cases)));
  await journal.close();
  const line = Buffer.byteLength(JSON.stringify(appended)) + 1;
  const after: Expected = {
    events: [...repaired.events, appended],
    byteLength: repaired.byteLength + line,
    lines: repaired.lines + 1,
    corruptLines: repaired.corruptLines,
  };

  // Reopen with the sidecar kept, deleted, garbled or subtly wrong.
  await damageSidecar(`${path}.idx`, sidecar);
  const reopened = await coded(() => track(createFileJournal({ path })));
  await coded(() => checkReads(reopened, after, path, pageSize));
  await reopened.close();
  await damageSidecar(`${path}.idx`, sidecar);
  const again = await coded(() => track(openJournalReadOnly(path)));
  await coded(() => checkReads(again, after, path, pageSize));
  await again.close();
  await rm(dir, { recursive: true, force: true });
};

describe('journal files of arbitrary bytes (fuzz)', () => {
  it('returns every complete valid line once, in order, through every method and reopen', {
    timeout: fuzzTimeout(100, 150),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        journalBytesArb,
        sidecarArb,
        fc.integer({ min: 1, max: 8 }),
        async (bytes, sidecar, pageSize) => {
          try {
            await oneCase(bytes, sidecar, pageSize);
          } finally {
            // A failing case must not leave handles behind for the next ones.
            await Promise.all(opened.splice(0).map((journal) => journal.close().catch(() => {})));
          }
        },
      ),
      fuzzSettings(100),
    );
  });

  it('reads a journal with lines larger than the read chunks and first windows (2.5 MiB) the same through every method', {
    timeout: 60_000,
  }, async () => {
    const lines = [
      JSON.stringify({ id: 'evt_a', type: 'info', timestamp: 't', data: 'a' }),
      JSON.stringify({ id: 'evt_huge', type: 'info', timestamp: 't', data: 'x'.repeat(5 << 19) }),
      'garbage',
      JSON.stringify({ id: 'evt_b', type: 'info', timestamp: 't', data: 'b' }),
    ];
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    await oneCase(bytes, { kind: 'delete' }, 1);
  });
});
