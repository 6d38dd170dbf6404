import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ConformanceContext, readText } from '../conformance-context.js';
import { infoEvent, sampleRun } from '../sample-events.js';

export function streamAllEventsCases(context: ConformanceContext): void {
  describe('streamAllEvents()', () => {
    it('streams one JSON event per line, in order, ending with a newline', async () => {
      const journal = context.journal();
      const stored = await journal.appendMany(sampleRun());
      const stream = await journal.streamAllEvents();
      expect(stream).toBeInstanceOf(Readable);
      const text = await readText(stream);
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      expect(lines.map((line) => JSON.parse(line))).toEqual(stored);
    });

    it('streams nothing for an empty journal', async () => {
      expect(await readText(await context.journal().streamAllEvents())).toBe('');
    });

    it('keeps streaming what was there when it was created', async () => {
      const journal = context.journal();
      await journal.appendMany([infoEvent(0), infoEvent(1)]);
      const stream = await journal.streamAllEvents();
      await journal.append(infoEvent(2));
      const lines = (await readText(stream)).trim().split('\n');
      expect(lines).toHaveLength(2);
    });
  });
}
