import { describe, expect, it } from 'vitest';

describe('@hankweave/bundle', () => {
  it('exports exactly the public surface', async () => {
    expect(Object.keys(await import('./index.js'))).toMatchSnapshot();
  });
});
