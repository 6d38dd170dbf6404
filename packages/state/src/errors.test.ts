import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { STATE_ERROR_CODES, StateError } from './errors.js';

describe('StateError', () => {
  it('has one list of codes, all prefixed STATE_', () => {
    expect(STATE_ERROR_CODES).toMatchSnapshot();
    for (const code of STATE_ERROR_CODES) expect(code).toMatch(/^STATE_[A-Z_]+$/);
  });

  it('is a HankweaveError with code, details and a wire form', () => {
    const error = new StateError('STATE_LOCKED', 'held by pid 7', { details: { pid: 7 } });
    expect(HankweaveError.is(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.toJSON()).toEqual({
      name: 'StateError',
      code: 'STATE_LOCKED',
      message: 'held by pid 7',
      details: { pid: 7 },
    });
    expect(StateError.is(error, 'STATE_LOCKED')).toBe(true);
    expect(StateError.is(error, 'STATE_CORRUPT')).toBe(false);
    expect(StateError.is(new HankweaveError('JOURNAL_X', 'x'))).toBe(false);
  });
});
