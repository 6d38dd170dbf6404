import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { REMOTE_ERROR_CODES, RemoteError } from './errors.js';

describe('RemoteError', () => {
  it('keeps its list of codes stable', () => {
    expect(REMOTE_ERROR_CODES).toMatchSnapshot();
  });

  it('prefixes every code with REMOTE_', () => {
    for (const code of REMOTE_ERROR_CODES) expect(code).toMatch(/^REMOTE_[A-Z_]+$/);
  });

  it('is a branded HankweaveError with its own name and code', () => {
    const error = new RemoteError('REMOTE_UNREACHABLE', 'x', { details: { url: 'u' } });
    expect(error).toBeInstanceOf(HankweaveError);
    expect(RemoteError.is(error, 'REMOTE_UNREACHABLE')).toBe(true);
    expect(error.toJSON()).toMatchObject({ name: 'RemoteError', code: 'REMOTE_UNREACHABLE' });
  });
});
