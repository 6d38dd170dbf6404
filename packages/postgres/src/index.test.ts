import { describe, expect, it } from 'vitest';
import { POSTGRES_ERROR_CODES, PostgresError } from './errors.js';

describe('public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports exactly these names from ./testing', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toMatchSnapshot();
  });

  it('has exactly these error codes', () => {
    expect(POSTGRES_ERROR_CODES).toMatchSnapshot();
  });
});

describe('PostgresError', () => {
  it('carries its code and details, and is recognised by is()', () => {
    const error = new PostgresError('POSTGRES_SCHEMA_TOO_NEW', 'newer', {
      details: { version: 2 },
    });
    expect(error.name).toBe('PostgresError');
    expect(PostgresError.is(error, 'POSTGRES_SCHEMA_TOO_NEW')).toBe(true);
    expect(PostgresError.is(error, 'POSTGRES_QUERY_FAILED')).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'PostgresError',
      code: 'POSTGRES_SCHEMA_TOO_NEW',
      message: 'newer',
      details: { version: 2 },
    });
  });
});
