import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { INSPECTION_ERROR_CODES, InspectionError } from './errors.js';

describe('InspectionError', () => {
  it('keeps its list of codes stable', () => {
    expect(INSPECTION_ERROR_CODES).toMatchSnapshot();
  });

  it('prefixes every code with INSPECTION_', () => {
    for (const code of INSPECTION_ERROR_CODES) expect(code).toMatch(/^INSPECTION_[A-Z_]+$/);
  });

  it('is a branded HankweaveError that carries its hint in details', () => {
    const error = new InspectionError('INSPECTION_NOT_FOUND', 'x', 'do y');
    expect(error).toBeInstanceOf(HankweaveError);
    expect(InspectionError.is(error, 'INSPECTION_NOT_FOUND')).toBe(true);
    expect(error.hint).toBe('do y');
    expect(error.toJSON()).toMatchObject({
      name: 'InspectionError',
      code: 'INSPECTION_NOT_FOUND',
      details: { hint: 'do y' },
    });
  });
});
