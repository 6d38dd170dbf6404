import { describe, expect, it } from 'vitest';
import { SENTINEL_ERROR_CODES, SentinelError } from './errors.js';

describe('public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('has exactly these error codes', () => {
    expect(SENTINEL_ERROR_CODES).toMatchSnapshot();
    expect(SENTINEL_ERROR_CODES.every((code) => code.startsWith('SENTINEL_'))).toBe(true);
  });
});

describe('SentinelError', () => {
  it('carries its code and serialises for the wire', () => {
    const error = new SentinelError('SENTINEL_CONFIG_INVALID', 'bad', { details: { ref: 'a' } });
    expect(SentinelError.is(error)).toBe(true);
    expect(SentinelError.is(error, 'SENTINEL_CONFIG_INVALID')).toBe(true);
    expect(SentinelError.is(error, 'SENTINEL_DUPLICATE_ID')).toBe(false);
    expect(SentinelError.is(new Error('bad'))).toBe(false);
    expect(error.name).toBe('SentinelError');
    expect(error.toJSON()).toEqual({
      name: 'SentinelError',
      code: 'SENTINEL_CONFIG_INVALID',
      message: 'bad',
      details: { ref: 'a' },
    });
  });
});
