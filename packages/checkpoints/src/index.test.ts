import { CHECKPOINT_TYPES as SHARED_CHECKPOINT_TYPES } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_ERROR_CODES, CHECKPOINT_TYPES, CheckpointError } from './index.js';

describe('@hankweave/checkpoints', () => {
  it('exports exactly the public names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports the testing helpers under ./testing', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toMatchSnapshot();
  });

  it('knows the same checkpoint types as @hankweave/types', () => {
    expect([...CHECKPOINT_TYPES]).toEqual([...SHARED_CHECKPOINT_TYPES]);
  });

  it('keeps the error codes stable', () => {
    expect(CHECKPOINT_ERROR_CODES).toMatchSnapshot();
    expect(CHECKPOINT_ERROR_CODES.every((code) => code.startsWith('CHECKPOINT_'))).toBe(true);
  });

  it('builds branded, serialisable errors', () => {
    const error = new CheckpointError('CHECKPOINT_NOT_FOUND', 'no such checkpoint', {
      details: { ref: 'abc1' },
    });
    expect(CheckpointError.is(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.toJSON()).toEqual({
      name: 'CheckpointError',
      code: 'CHECKPOINT_NOT_FOUND',
      message: 'no such checkpoint',
      details: { ref: 'abc1' },
    });
  });
});
