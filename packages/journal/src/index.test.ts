import { describe, expect, it } from 'vitest';
import { JOURNAL_ERROR_CODES, JournalError } from './errors.js';

describe('public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports exactly these names from ./testing', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toMatchSnapshot();
  });

  it('has exactly these error codes', () => {
    expect(JOURNAL_ERROR_CODES).toMatchSnapshot();
  });
});

describe('JournalError', () => {
  it('carries its code, details and cause, and serialises for the wire', () => {
    const cause = new Error('disk');
    const error = new JournalError('JOURNAL_WRITE_FAILED', 'cannot write', {
      cause,
      details: { path: '/x' },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('JournalError');
    expect(error.cause).toBe(cause);
    expect(JournalError.is(error)).toBe(true);
    expect(JournalError.is(error, 'JOURNAL_WRITE_FAILED')).toBe(true);
    expect(JournalError.is(error, 'JOURNAL_CLOSED')).toBe(false);
    expect(JournalError.is(new Error('disk'))).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'JournalError',
      code: 'JOURNAL_WRITE_FAILED',
      message: 'cannot write',
      details: { path: '/x' },
    });
  });
});
