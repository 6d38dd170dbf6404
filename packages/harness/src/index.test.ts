import { describe, expect, it } from 'vitest';
import { HARNESS_ERROR_CODES } from './index.js';

describe('@hankweave/harness', () => {
  it('exports a stable set of names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports a stable set of testing names', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toMatchSnapshot();
  });

  it('has a stable list of error codes', () => {
    expect(HARNESS_ERROR_CODES).toMatchSnapshot();
  });
});
