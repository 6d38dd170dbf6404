import { describe, expect, it } from 'vitest';

describe('@hankweave/durable-io', () => {
  it('exports a stable set of names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('exports a stable set of testing tools', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toMatchSnapshot();
  });
});
