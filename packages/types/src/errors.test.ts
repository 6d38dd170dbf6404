import { describe, expect, it } from 'vitest';
import { defineErrorClass, HankweaveError } from './errors.js';

const DEMO_ERROR_CODES = ['DEMO_BROKEN', 'DEMO_MISSING'] as const;
class DemoError extends defineErrorClass('DemoError', DEMO_ERROR_CODES) {}
class OtherError extends defineErrorClass('OtherError', ['OTHER_BROKEN']) {}

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
    expect(String(error)).toBe('DemoError: could not write');
  });

  it('recognises branded errors and rejects look-alikes', () => {
    expect(HankweaveError.is(new DemoError('DEMO_BROKEN', 'x'))).toBe(true);
    expect(HankweaveError.is(new DemoError('DEMO_BROKEN', 'x'), 'DEMO_BROKEN')).toBe(true);
    expect(HankweaveError.is(new DemoError('DEMO_BROKEN', 'x'), 'DEMO_MISSING')).toBe(false);
    expect(HankweaveError.is({ code: 'DEMO_BROKEN', message: 'x' })).toBe(false);
    expect(HankweaveError.is(new Error('x'))).toBe(false);
    expect(HankweaveError.is(null)).toBe(false);
  });
});

describe('defineErrorClass()', () => {
  it('makes a named class whose is() matches its own errors, by code when asked', () => {
    const error: unknown = new DemoError('DEMO_MISSING', 'gone');
    expect(DemoError.is(error)).toBe(true);
    expect(DemoError.is(error, 'DEMO_MISSING')).toBe(true);
    expect(DemoError.is(error, 'DEMO_BROKEN')).toBe(false);
    expect(OtherError.is(error)).toBe(false);
    expect(error).toBeInstanceOf(DemoError);
    expect(error).toBeInstanceOf(HankweaveError);
    expect(error).toBeInstanceOf(Error);
    if (DemoError.is(error)) expect(error.code).toBe('DEMO_MISSING'); // narrowed to DemoError
    expect(DemoError.name).toBe('DemoError');
    expect(DemoError.errorName).toBe('DemoError');
    expect(DemoError.codes).toEqual(['DEMO_BROKEN', 'DEMO_MISSING']);
  });

  it('recognises an error made by another copy of the package (same brand and name)', () => {
    const copy = defineErrorClass('DemoError', DEMO_ERROR_CODES);
    expect(DemoError.is(new copy('DEMO_BROKEN', 'x'))).toBe(true);
    expect(new copy('DEMO_BROKEN', 'x')).not.toBeInstanceOf(DemoError);
  });

  it('refuses a code that is not in its list', () => {
    expect(() => new DemoError('DEMO_UNKNOWN' as 'DEMO_BROKEN', 'x')).toThrow(
      /"DEMO_UNKNOWN" is not one of its codes/,
    );
  });
});
