import { describe, expect, it } from 'vitest';
import type { CheckpointWire } from '../../api/types.js';
import { defaultFrom, findCheckpoint, normalizeCheckpoints } from './checkpoint-picks.js';

const c = (sha: string, minute: number): CheckpointWire => ({
  sha,
  type: 'completed',
  time: new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString(),
  message: sha,
});
const list = normalizeCheckpoints([c('aaaa1111', 1), c('cccc3333', 3), c('bbbb2222', 2)]);

describe('normalizeCheckpoints()', () => {
  it('sorts newest first', () => {
    expect(list.map((x) => x.sha)).toEqual(['cccc3333', 'bbbb2222', 'aaaa1111']);
  });
  it('accepts an envelope and ignores anything else', () => {
    expect(normalizeCheckpoints({ checkpoints: [c('x', 1)] })).toHaveLength(1);
    expect(normalizeCheckpoints({ nope: 1 })).toEqual([]);
    expect(normalizeCheckpoints([{ time: 'x' }])).toEqual([]);
  });
});

describe('findCheckpoint()', () => {
  it('matches a full sha or a prefix of four or more characters', () => {
    expect(findCheckpoint(list, 'bbbb2222')?.sha).toBe('bbbb2222');
    expect(findCheckpoint(list, 'bbbb')?.sha).toBe('bbbb2222');
    expect(findCheckpoint(list, 'bbb')).toBeUndefined();
  });
});

describe('defaultFrom()', () => {
  it('is the checkpoint just older than the target', () => {
    expect(defaultFrom(list, 'cccc')).toBe('bbbb2222');
  });
  it('is undefined for the oldest or an unknown target', () => {
    expect(defaultFrom(list, 'aaaa1111')).toBeUndefined();
    expect(defaultFrom(list, 'ffff')).toBeUndefined();
  });
});
