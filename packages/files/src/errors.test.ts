import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { FILES_ERROR_CODES, FilesError } from './errors.js';

describe('FilesError', () => {
  it('keeps its list of codes stable', () => {
    expect(FILES_ERROR_CODES).toMatchSnapshot();
  });

  it('prefixes every code with FILES_', () => {
    for (const code of FILES_ERROR_CODES) expect(code).toMatch(/^FILES_[A-Z_]+$/);
  });

  it('is a branded HankweaveError with its own name, code, details and cause', () => {
    const cause = new Error('EACCES');
    const error = new FilesError('FILES_UNREADABLE', 'x', { cause, details: { path: 'a' } });
    expect(error).toBeInstanceOf(HankweaveError);
    expect(FilesError.is(error)).toBe(true);
    expect(FilesError.is(error, 'FILES_UNREADABLE')).toBe(true);
    expect(FilesError.is(error, 'FILES_NOT_FOUND')).toBe(false);
    expect(FilesError.is(new HankweaveError('FILES_UNREADABLE', 'x'))).toBe(false);
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).toMatchObject({
      name: 'FilesError',
      code: 'FILES_UNREADABLE',
      details: { path: 'a' },
    });
  });
});
