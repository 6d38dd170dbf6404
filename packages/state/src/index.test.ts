import { describe, expect, it } from 'vitest';

describe('public surface', () => {
  it('exports these names from @hankweave/state', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports these names from @hankweave/state/testing', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toMatchSnapshot();
  });
});
