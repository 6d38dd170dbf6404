import { describe, expect, it } from 'vitest';
import { formatMessage, parseMessage } from './message.js';

describe('formatMessage()', () => {
  it('writes seed 002 example byte for byte', () => {
    const message = formatMessage(
      'completed',
      'build-schema',
      '20240115-abc123',
      'Build Zod Schemas',
      new Date('2024-01-15T14:23:30.000Z'),
      45000,
    );
    expect(message).toBe(
      'completed:build-schema [run:20240115-abc123] Build Zod Schemas\n\nCodon: Build Zod Schemas\nStatus: completed\nTimestamp: 2024-01-15T14:23:30.000Z\nDuration: 45000ms\n',
    );
  });

  it('folds line breaks in the codon name and rounds the duration', () => {
    const message = formatMessage('error', 'c1', 'r', 'Two\nlines\t here ', new Date(0), 12.6);
    expect(message.split('\n')[0]).toBe('error:c1 [run:r] Two lines here');
    expect(message).toContain('Duration: 13ms\n');
  });
});

describe('parseMessage()', () => {
  it('reads back what formatMessage wrote', () => {
    const when = new Date('2024-03-01T10:00:00.500Z');
    expect(
      parseMessage(formatMessage('rig-setup', 'review#1', 'run-7', 'Review', when, 5), 0),
    ).toEqual({
      type: 'rig-setup',
      codonId: 'review#1',
      runId: 'run-7',
      codonName: 'Review',
      timestamp: '2024-03-01T10:00:00.500Z',
      durationMs: 5,
    });
  });

  it('ignores commits that are not checkpoints and tolerates a missing body', () => {
    expect(parseMessage('Initial checkpoint setup\n', 0)).toBeUndefined();
    expect(parseMessage('recovery snapshot\n', 0)).toBeUndefined();
    expect(parseMessage('skipped:c2 [run:r1] Name only', 86400)).toEqual({
      type: 'skipped',
      codonId: 'c2',
      runId: 'r1',
      codonName: 'Name only',
      timestamp: '1970-01-02T00:00:00.000Z',
      durationMs: null,
    });
  });
});
