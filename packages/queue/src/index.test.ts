import { describe, expect, it } from 'vitest';
import { QUEUE_ERROR_CODES } from './errors.js';

describe('public surface', () => {
  it('exports these names from @hankweave/queue', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports these names from @hankweave/queue/testing', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toMatchSnapshot();
  });

  it('has these error codes', () => {
    expect(QUEUE_ERROR_CODES).toMatchSnapshot();
  });
});
