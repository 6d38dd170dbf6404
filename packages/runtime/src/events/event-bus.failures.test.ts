import { createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { createFileJournal } from '@hankweave/journal';
import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.js';
import { errnoBehind } from './repeated-failures.js';

/** A file journal in a temp dir whose writes (and fsyncs) fail with `code` once armed. */
async function failingJournal(code: string) {
  const dir = await makeTempDir('hw-bus-failures-');
  const fs = createFaultyFs({ trace: false });
  const journal = await createFileJournal({ hankweaveDir: dir.path, fs });
  fs.arm([
    { failAt: 'write', code, times: Number.POSITIVE_INFINITY },
    { failAt: 'writeFile', code, times: Number.POSITIVE_INFINITY },
    { failAt: 'fsync', code, times: Number.POSITIVE_INFINITY },
  ]);
  return { journal, dir };
}

describe('EventBus failure reporting', () => {
  it('reports a full disk once per codon, then the count, not once per event', async () => {
    const { journal, dir } = await failingJournal('ENOSPC');
    const reports: string[] = [];
    const bus = new EventBus({
      sink: journal,
      onError: (error, what) => reports.push(`${what} failed: ${(error as Error).message}`),
    });
    for (const codonId of ['a', 'b']) {
      for (let index = 0; index < 20; index++) {
        bus.emit('assistant.action', {
          codonId,
          action: 'message',
          content: `m${index}`,
        } as never);
      }
      await bus.settled();
      // Let the appends of this codon fail before the next codon's events arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await bus.drain();
    await journal.close().catch(() => undefined);
    await dir.cleanup();

    const firsts = reports.filter((line) => line.includes('are counted, not repeated'));
    expect(firsts).toHaveLength(2);
    expect(firsts[0]).toContain('ENOSPC');
    expect(firsts[0]).toContain('in codon a');
    expect(firsts[1]).toContain('in codon b');
    const counts = reports.filter((line) => line.includes('more time(s)'));
    expect(counts).toHaveLength(2);
    expect(counts[0]).toMatch(/^journal append in codon a failed: ENOSPC again, 19 more time/);
    expect(reports).toHaveLength(4);
  });

  it('reports each failure without an errno: they are not the same failure', () => {
    const reports: string[] = [];
    const bus = new EventBus({ onError: (_, what) => reports.push(what) });
    bus.subscribe(() => {
      throw new Error('listener bug');
    });
    bus.emit('info', { message: 'one' });
    bus.emit('info', { message: 'two' });
    expect(reports).toEqual(['listener of info', 'listener of info']);
  });
});

describe('errnoBehind()', () => {
  it('finds the errno of a system error, of its cause, or recorded by a wrapper', async () => {
    const { journal, dir } = await failingJournal('EDQUOT');
    const error = await journal
      .append({
        id: 'x',
        type: 'info',
        timestamp: new Date().toISOString(),
        data: { message: 'm' },
      } as never)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    await journal.close().catch(() => undefined);
    await dir.cleanup();
    expect(errnoBehind(error)).toBe('EDQUOT');
    expect(errnoBehind(new Error('plain'))).toBeUndefined();
    expect(errnoBehind(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('ENOSPC');
  });
});
