import { CONNECTION_STATE_EVENT_TYPES, type NewEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import type { ConformanceContext } from '../conformance-context.js';
import { infoEvent } from '../sample-events.js';

const invalid = {
  type: 'codon.completed',
  timestamp: '2025-01-15T14:30:00.000Z',
  data: { codonId: 'observe', success: 'yes' },
} as unknown as NewEvent;

export function validationCases(context: ConformanceContext): void {
  describe('append() validation', () => {
    it('rejects an event that fails its schema with JOURNAL_INVALID and writes nothing', async () => {
      const journal = context.journal();
      const error = await journal.append(invalid).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'JOURNAL_INVALID', name: 'JournalError' });
      // The ZodError is the cause, so callers can show every issue.
      expect((error as { cause: { issues: unknown[] } }).cause.issues.length).toBeGreaterThan(0);
      expect(await journal.getTotalEvents()).toBe(0);
    });

    it('rejects an unknown event type with JOURNAL_INVALID', async () => {
      const event = { type: 'made.up', timestamp: 'now', data: {} } as unknown as NewEvent;
      await expect(context.journal().append(event)).rejects.toMatchObject({
        code: 'JOURNAL_INVALID',
      });
    });

    it.each([null, 'codon.started', 42, []])('rejects %j with JOURNAL_INVALID', async (value) => {
      await expect(context.journal().append(value as unknown as NewEvent)).rejects.toMatchObject({
        code: 'JOURNAL_INVALID',
      });
    });

    it('rejects an event without a timestamp with JOURNAL_INVALID', async () => {
      const { timestamp: _, ...event } = infoEvent(1);
      await expect(context.journal().append(event as unknown as NewEvent)).rejects.toMatchObject({
        code: 'JOURNAL_INVALID',
      });
    });

    it.each(CONNECTION_STATE_EVENT_TYPES)(
      'rejects the connection-state event %s with JOURNAL_NOT_JOURNALED',
      async (type) => {
        const event = { type, timestamp: 'now', data: {} } as unknown as NewEvent;
        await expect(context.journal().append(event)).rejects.toMatchObject({
          code: 'JOURNAL_NOT_JOURNALED',
        });
        expect(await context.journal().getTotalEvents()).toBe(0);
      },
    );

    it('rejects a whole bulk append when one event is invalid, naming its index', async () => {
      const journal = context.journal();
      await expect(
        journal.appendMany([infoEvent(0), infoEvent(1), invalid, infoEvent(3)]),
      ).rejects.toMatchObject({ code: 'JOURNAL_INVALID', details: { index: 2 } });
      expect(await journal.getTotalEvents()).toBe(0);
    });

    it('keeps accepting valid events after rejecting an invalid one', async () => {
      const journal = context.journal();
      await journal.append(invalid).catch(() => undefined);
      await journal.append(infoEvent(1));
      expect(await journal.getTotalEvents()).toBe(1);
    });
  });
}
