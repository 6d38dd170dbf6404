import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { websocketLogEntrySchema } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketLogReader } from './websocket-log-reader.js';
import { createWebSocketLogWriter, websocketLogPathOf } from './websocket-log-writer.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function hankweaveDir() {
  const { path: dir, cleanup } = await makeTempDir('journal-test-');
  cleanups.push(cleanup);
  return dir;
}

const at = new Date('2025-01-04T12:00:01.000Z');
const started = {
  type: 'codon.started',
  timestamp: '2025-01-04T12:00:01.000Z',
  data: { codonId: 'generate#0', codonName: 'Generate', note: 'héllo ✓' },
};

async function writeSampleLog(dir: string) {
  const writer = await createWebSocketLogWriter({ hankweaveDir: dir, now: () => at });
  writer.logIn({ type: 'ping' });
  writer.logOut({ type: 'pong', timestamp: 'x', data: { message: 'pong' } });
  writer.logOut(started);
  writer.logOut({ type: 'error', data: { message: 'boom', codon: 'generate#0', fatal: false } });
  writer.logOut({ type: 'codon.started', data: { codonId: 'review#0' } });
  writer.logIn({ type: 'rollback', data: { codonId: 'generate#0' } });
  await writer.close();
  return websocketLogPathOf(dir);
}

describe('createWebSocketLogWriter()', () => {
  it('writes one seed-001 entry per line, in call order, with the UTF-8 size', async () => {
    const dir = await hankweaveDir();
    const path = await writeSampleLog(dir);
    expect(path).toBe(join(dir, 'logs', 'websocket.log'));
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(6);
    const entries = lines.map((line) => websocketLogEntrySchema.parse(JSON.parse(line)));
    expect(entries[2]).toEqual({
      loggedAt: '2025-01-04T12:00:01.000Z',
      direction: 'out',
      message: started,
      metadata: { size: Buffer.byteLength(JSON.stringify(started)) },
    });
    // Multi-byte characters count as bytes, not as string length.
    expect(entries[2]?.metadata.size).toBeGreaterThan(JSON.stringify(started).length);
    expect(entries.map((entry) => entry.direction)).toEqual([
      'in',
      'out',
      'out',
      'out',
      'out',
      'in',
    ]);
  });

  it('appends to an existing log', async () => {
    const dir = await hankweaveDir();
    await writeSampleLog(dir);
    const path = await writeSampleLog(dir);
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(12);
  });

  it('throws JOURNAL_INVALID for a message that is not JSON, and JOURNAL_CLOSED after close', async () => {
    const writer = await createWebSocketLogWriter({ hankweaveDir: await hankweaveDir() });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => writer.logOut(circular)).toThrow(
      expect.objectContaining({ code: 'JOURNAL_INVALID' }),
    );
    expect(() => writer.logIn(undefined)).toThrow(
      expect.objectContaining({ code: 'JOURNAL_INVALID' }),
    );
    await writer.close();
    await writer.close();
    expect(() => writer.logIn({ type: 'ping' })).toThrow(
      expect.objectContaining({ code: 'JOURNAL_CLOSED' }),
    );
  });

  it('reports a failed write from flush() with JOURNAL_WRITE_FAILED', async () => {
    const fs = createFaultyFs();
    const writer = await createWebSocketLogWriter({ hankweaveDir: await hankweaveDir(), fs });
    fs.arm({ failAt: 'write', times: 1, code: 'EIO' });
    writer.logIn({ type: 'ping' });
    await expect(writer.flush()).rejects.toMatchObject({ code: 'JOURNAL_WRITE_FAILED' });
    writer.logIn({ type: 'ping' });
    await expect(writer.flush()).resolves.toBeUndefined();
    await writer.close();
  });
});

describe('WebSocketLogReader', () => {
  it('readLog() returns every entry in order', async () => {
    const path = await writeSampleLog(await hankweaveDir());
    const reader = new WebSocketLogReader(path);
    const entries = await reader.readLog();
    expect(entries.map((entry) => (entry.message as { type: string }).type)).toEqual([
      'ping',
      'pong',
      'codon.started',
      'error',
      'codon.started',
      'rollback',
    ]);
    expect(reader.entries).toEqual(entries);
  });

  it('getStatistics() counts entries, message types, directions and bytes', async () => {
    const path = await writeSampleLog(await hankweaveDir());
    const reader = new WebSocketLogReader(path);
    expect(reader.getStatistics().totalEntries).toBe(0);
    const entries = await reader.readLog();
    const stats = reader.getStatistics();
    const bytes = (direction: string) =>
      entries
        .filter((entry) => entry.direction === direction)
        .reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify(entry.message)), 0);
    expect(stats).toEqual({
      totalEntries: 6,
      messageTypes: { ping: 1, pong: 1, 'codon.started': 2, error: 1, rollback: 1 },
      byDirection: { in: 2, out: 4 },
      totalBytes: bytes('in') + bytes('out'),
      bytesByDirection: { in: bytes('in'), out: bytes('out') },
      corruptLines: 0,
    });
  });

  it('getCodonMessages() matches data.codonId and data.codon', async () => {
    const path = await writeSampleLog(await hankweaveDir());
    const reader = new WebSocketLogReader(path);
    await reader.readLog();
    const types = reader
      .getCodonMessages('generate#0')
      .map((entry) => (entry.message as { type: string }).type);
    expect(types).toEqual(['codon.started', 'error', 'rollback']);
    expect(reader.getCodonMessages('review#0')).toHaveLength(1);
    expect(reader.getCodonMessages('nothing')).toEqual([]);
  });

  it('skips and counts corrupt lines and an unfinished last line', async () => {
    const path = await writeSampleLog(await hankweaveDir());
    await appendFile(
      path,
      'garbage\n{"loggedAt":"x","direction":"sideways","message":1,"metadata":{"size":1}}\n{"loggedAt":',
    );
    const reader = new WebSocketLogReader(path);
    expect(await reader.readLog()).toHaveLength(6);
    expect(reader.getStatistics().corruptLines).toBe(2);
  });

  it('counts message types named like Object.prototype members (found by the fuzz tests)', async () => {
    const dir = await hankweaveDir();
    const writer = await createWebSocketLogWriter({ hankweaveDir: dir, now: () => at });
    for (const type of ['__proto__', 'constructor', 'toString', '__proto__', 'ping']) {
      writer.logIn({ type });
    }
    await writer.close();
    const reader = new WebSocketLogReader(websocketLogPathOf(dir));
    await reader.readLog();
    const { messageTypes } = reader.getStatistics();
    // Before: `__proto__` was lost and `constructor` counted as "function Object() {...}1".
    expect(Object.entries(messageTypes).sort()).toEqual([
      ['__proto__', 2],
      ['constructor', 1],
      ['ping', 1],
      ['toString', 1],
    ]);
    expect(Object.getPrototypeOf(messageTypes)).toBe(Object.prototype);
  });

  it('fails with JOURNAL_READ_FAILED when the log does not exist', async () => {
    const reader = new WebSocketLogReader(join(await hankweaveDir(), 'missing.log'));
    await expect(reader.readLog()).rejects.toMatchObject({ code: 'JOURNAL_READ_FAILED' });
  });
});
