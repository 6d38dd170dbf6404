import { describe, expect, it } from 'vitest';

describe('@hankweave/claude-code', () => {
  it('exports a stable set of names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });
});
