import { describe, expect, it } from 'vitest';

describe('@hankweave/remote', () => {
  it('exports exactly the public surface', async () => {
    expect(Object.keys(await import('./index.js'))).toMatchSnapshot();
  });

  it('exports defaultCacheDir alone from the light entry ./cache-dir', async () => {
    expect(Object.keys(await import('./default-cache-dir.js'))).toEqual(['defaultCacheDir']);
  });

  it('exports exactly the testing surface', async () => {
    expect(Object.keys(await import('./testing.js'))).toMatchSnapshot();
  });
});
