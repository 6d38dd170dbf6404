import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  fuzzSettings,
  fuzzTimeout,
  makeTempDir,
  type TempDir,
} from '@hankweave/durable-io/testing';
import { type WebSocketLogEntry, websocketLogEntrySchema } from '@hankweave/types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalError } from '../../src/errors.js';
import { WebSocketLogReader } from '../../src/websocket-log/websocket-log-reader.js';
import { PROTOTYPE_KEYS } from './journal-bytes.js';

// websocket.log files of arbitrary bytes and of entries with odd messages: the reader never
// fails on content, returns every complete entry line in order, and its statistics count each
// entry once, message types named like Object.prototype members included.

const typeArb = fc.oneof(
  fc.constantFrom('ping', 'pong', 'codon.started', 'error', ...PROTOTYPE_KEYS),
  fc.string({ maxLength: 8 }),
);

const entryLineArb: fc.Arbitrary<Buffer> = fc
  .record({
    loggedAt: fc.oneof(fc.constant('2025-01-04T12:00:01.000Z'), fc.string({ maxLength: 4 })),
    direction: fc.oneof(fc.constantFrom('in', 'out'), fc.string({ maxLength: 3 })),
    message: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({
        type: fc.oneof(typeArb, fc.jsonValue({ maxDepth: 1 })),
        data: fc.option(
          fc.record({
            codonId: fc.constantFrom('a', 'b', 'constructor'),
            codon: fc.constantFrom('a', 'b'),
          }),
        ),
      }),
    ),
    size: fc.oneof(fc.nat(5000), fc.integer(), fc.double()),
  })
  .map(({ loggedAt, direction, message, size }) =>
    Buffer.from(`${JSON.stringify({ loggedAt, direction, message, metadata: { size } })}\n`),
  );

const logBytesArb: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .tuple(
      fc.array(
        fc.oneof(
          { weight: 5, arbitrary: entryLineArb },
          {
            weight: 1,
            arbitrary: fc
              .uint8Array({ maxLength: 60 })
              .map((bytes) => Buffer.concat([Buffer.from(bytes), Buffer.from('\n')])),
          },
        ),
        { maxLength: 30 },
      ),
      fc.uint8Array({ maxLength: 30 }),
    )
    .map(([lines, tail]) => Buffer.concat([...lines, Buffer.from(tail).filter((b) => b !== 10)])),
  fc.uint8Array({ maxLength: 500 }).map((bytes) => Buffer.from(bytes)),
);

/** The test's own reading: every complete line that parses as an entry. */
const expectedEntries = (bytes: Buffer): { entries: WebSocketLogEntry[]; corrupt: number } => {
  const entries: WebSocketLogEntry[] = [];
  let corrupt = 0;
  const lines = bytes.toString('utf8').split('\n').slice(0, -1);
  // Decoding line by line and the whole file at once agree: '\n' never occurs inside a
  // multi-byte UTF-8 sequence, and invalid bytes decode to U+FFFD either way.
  for (const line of lines) {
    let parsed: ReturnType<typeof websocketLogEntrySchema.safeParse> | undefined;
    try {
      parsed = websocketLogEntrySchema.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) entries.push(parsed.data);
    else corrupt += 1;
  }
  return { entries, corrupt };
};

const typeOf = (message: unknown): string => {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : '(none)';
};

let root: TempDir;
let cases = 0;
beforeAll(async () => {
  root = await makeTempDir('journal-wslog-fuzz-');
});
afterAll(async () => {
  await root.cleanup();
});

describe('WebSocketLogReader on arbitrary bytes (fuzz)', () => {
  it('reads every complete entry once, in order, and counts each in the statistics', {
    timeout: fuzzTimeout(200, 20),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        logBytesArb,
        fc.constantFrom('a', 'b', 'constructor'),
        async (bytes, codonId) => {
          const dir = join(root.path, `case-${cases++}`);
          await mkdir(dir);
          const path = join(dir, 'websocket.log');
          await writeFile(path, bytes);
          const reader = new WebSocketLogReader(path);
          let entries: WebSocketLogEntry[];
          try {
            entries = await reader.readLog();
          } catch (error) {
            expect(JournalError.is(error), String(error)).toBe(true);
            throw error; // content never makes the read fail
          }
          const expected = expectedEntries(bytes);
          expect(entries).toEqual(expected.entries);
          const statistics = reader.getStatistics();
          expect(statistics.totalEntries).toBe(entries.length);
          expect(statistics.corruptLines).toBe(expected.corrupt);
          // Each entry counted once under its type, whatever the type is called.
          expect(Object.getPrototypeOf(statistics.messageTypes)).toBe(Object.prototype);
          const counts = Object.entries(statistics.messageTypes);
          expect(counts.reduce((sum, [, count]) => sum + count, 0)).toBe(entries.length);
          for (const [type, count] of counts) {
            expect(count).toBe(entries.filter((entry) => typeOf(entry.message) === type).length);
          }
          expect(statistics.byDirection.in + statistics.byDirection.out).toBe(entries.length);
          expect(reader.getCodonMessages(codonId)).toEqual(
            entries.filter((entry) => {
              const data = (entry.message as { data?: { codonId?: unknown; codon?: unknown } })
                ?.data;
              return data?.codonId === codonId || data?.codon === codonId;
            }),
          );
          await rm(dir, { recursive: true, force: true });
        },
      ),
      fuzzSettings(200),
    );
  });
});
