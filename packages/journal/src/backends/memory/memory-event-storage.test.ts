import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../create-journal.js';
import { EventJournal } from '../../event-journal.js';
import { infoEvent } from '../../testing/sample-events.js';

const many = (count: number) => Array.from({ length: count }, (_, i) => infoEvent(i));

describe('MemoryEventStorage', () => {
  it('keeps 100 events by default, like the original runtime', () => {
    expect(createMemoryJournal().backend.capabilities.maxEvents).toBe(100);
    expect(new EventJournal().backend.capabilities).toEqual({
      persistent: false,
      maxEvents: 100,
      readOnly: false,
    });
  });

  it('drops the oldest 10% of maxEvents when one event too many arrives', async () => {
    const journal = createMemoryJournal();
    await journal.appendMany(many(100));
    expect(await journal.getTotalEvents()).toBe(100);
    await journal.append(infoEvent(100));
    expect(await journal.getTotalEvents()).toBe(91);
    expect((await journal.stats()).trimmedEvents).toBe(10);
    const [oldest] = (await journal.getMostRecentEvents(91)).events;
    expect(oldest?.data).toEqual({ message: 'event 10' });
  });

  it('drops the whole excess when it is more than 10%', async () => {
    const journal = createMemoryJournal({ maxEvents: 20 });
    await journal.appendMany(many(50));
    expect(await journal.getTotalEvents()).toBe(20);
    expect((await journal.stats()).trimmedEvents).toBe(30);
  });

  it.each([0, -1, 2.5, Number.NaN])(
    'rejects maxEvents %s with JOURNAL_BAD_ARGUMENT',
    (maxEvents) => {
      expect(() => createMemoryJournal({ maxEvents })).toThrow(
        expect.objectContaining({ code: 'JOURNAL_BAD_ARGUMENT' }),
      );
    },
  );
});
