import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_CODES } from './index.js';

describe('@hankweave/server', () => {
  it('exports a stable set of names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports a stable set of names from ./client', async () => {
    expect(Object.keys(await import('./client.js')).sort()).toMatchSnapshot();
  });

  it('has a stable list of error codes', () => {
    expect(SERVER_ERROR_CODES).toMatchSnapshot();
  });
});
