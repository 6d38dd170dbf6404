import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { SESSIONS_ERROR_CODES, SessionsError } from './errors.js';

describe('SessionsError', () => {
  it('keeps its list of codes stable', () => {
    expect(SESSIONS_ERROR_CODES).toMatchSnapshot();
  });

  it('prefixes every code with SESSIONS_', () => {
    for (const code of SESSIONS_ERROR_CODES) expect(code).toMatch(/^SESSIONS_[A-Z_]+$/);
  });

  it('is a branded HankweaveError with its own name, code, details and cause', () => {
    const cause = new Error('EACCES');
    const error = new SessionsError('SESSIONS_IO', 'x', { cause, details: { file: 'a' } });
    expect(error).toBeInstanceOf(HankweaveError);
    expect(SessionsError.is(error, 'SESSIONS_IO')).toBe(true);
    expect(SessionsError.is(error, 'SESSIONS_CORRUPT_FILE')).toBe(false);
    expect(SessionsError.is(new HankweaveError('SESSIONS_IO', 'x'))).toBe(false);
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).toMatchObject({
      name: 'SessionsError',
      code: 'SESSIONS_IO',
      details: { file: 'a' },
    });
  });
});
