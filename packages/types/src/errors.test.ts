import { describe, expect, it } from 'vitest';
import { HankweaveError } from './errors.js';

class DemoError extends HankweaveError<'DEMO_BROKEN'> {
  override readonly name = 'DemoError';
}

describe('HankweaveError', () => {
  it('carries code, details and cause, and serialises them', () => {
    const cause = new Error('disk full');
    const error = new DemoError('DEMO_BROKEN', 'could not write', {
      cause,
      details: { path: '/x' },
    });
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).toEqual({
      name: 'DemoError',
      code: 'DEMO_BROKEN',
      message: 'could not write',
      details: { path: '/x' },
    });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ code: 'DEMO_BROKEN' });
  });

  it('recognises branded errors and rejects look-alikes', () => {
    expect(HankweaveError.is(new DemoError('DEMO_BROKEN', 'x'))).toBe(true);
    expect(HankweaveError.is({ code: 'DEMO_BROKEN', message: 'x' })).toBe(false);
    expect(HankweaveError.is(new Error('x'))).toBe(false);
    expect(HankweaveError.is(null)).toBe(false);
  });
});
