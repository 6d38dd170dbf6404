import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ERROR_CODES, BundleError } from './errors.js';

describe('BundleError', () => {
  it('keeps its list of codes stable', () => {
    expect(BUNDLE_ERROR_CODES).toMatchSnapshot();
  });

  it('prefixes every code with BUNDLE_', () => {
    for (const code of BUNDLE_ERROR_CODES) expect(code).toMatch(/^BUNDLE_[A-Z_]+$/);
  });

  it('is a branded HankweaveError naming the file at fault', () => {
    const error = new BundleError('BUNDLE_TAMPERED', 'x', { details: { file: 'a.md' } });
    expect(error).toBeInstanceOf(HankweaveError);
    expect(BundleError.is(error, 'BUNDLE_TAMPERED')).toBe(true);
    expect(error.toJSON()).toMatchObject({ name: 'BundleError', details: { file: 'a.md' } });
  });
});
