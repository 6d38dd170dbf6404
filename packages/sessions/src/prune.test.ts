import { describe, expect, it } from 'vitest';
import { parseDuration, selectPrunable } from './prune.js';
import type { SessionEntry } from './registry.js';

const DAY = 86_400_000;
const now = new Date('2025-02-01T00:00:00Z');
const entry = (fields: Partial<SessionEntry>): SessionEntry => ({
  type: 'loop',
  started_at: '2025-01-01T00:00:00Z',
  project_path: '/p',
  status: 'completed',
  ...fields,
});

describe('selectPrunable()', () => {
  const sessions: Record<string, SessionEntry> = {
    'loop-old-completed': entry({ completed_at: '2025-01-02T00:00:00Z' }),
    'loop-new-completed': entry({ completed_at: '2025-01-30T00:00:00Z' }),
    'loop-old-killed': entry({
      status: 'killed',
      killed_at: '2025-01-03T00:00:00Z',
      completed_at: null,
    }),
    'loop-running': entry({ status: 'running' }),
    'loop-unknown': entry({ status: 'unknown_termination' }),
    'loop-bad-time': entry({ completed_at: 'yesterday' }),
    'loop-started-only': entry({ completed_at: null, killed_at: null }),
  };

  it('picks ended entries older than the cutoff, by completed_at ?? killed_at ?? started_at', () => {
    expect(
      selectPrunable(sessions, { olderThanMs: 7 * DAY, statuses: ['completed', 'killed'], now }),
    ).toEqual(['loop-old-completed', 'loop-old-killed', 'loop-started-only']);
  });

  it('only picks the statuses asked for, and never running ones', () => {
    expect(
      selectPrunable(sessions, {
        olderThanMs: 0,
        statuses: ['unknown_termination', 'running'],
        now,
      }),
    ).toEqual(['loop-unknown']);
  });

  it('keeps everything newer than the cutoff', () => {
    expect(
      selectPrunable(sessions, { olderThanMs: 365 * DAY, statuses: ['completed'], now }),
    ).toEqual([]);
  });
});

describe('parseDuration()', () => {
  it.each([
    ['7d', 7 * DAY],
    ['12h', 12 * 3_600_000],
    ['30m', 30 * 60_000],
    ['45s', 45_000],
    ['2w', 14 * DAY],
    [' 3 D ', 3 * DAY],
    ['0d', 0],
  ])('reads %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([[''], ['7'], ['d'], ['1.5d'], ['-1d'], ['7y'], ['99999999999999999999d']])(
    'rejects %j with SESSIONS_INVALID_DURATION',
    (text) => {
      expect(() => parseDuration(text)).toThrow(
        expect.objectContaining({ code: 'SESSIONS_INVALID_DURATION' }),
      );
    },
  );
});
