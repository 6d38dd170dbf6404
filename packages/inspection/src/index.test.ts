import { describe, expect, it } from 'vitest';

describe('@hankweave/inspection', () => {
  it('exports exactly the public surface', async () => {
    expect(Object.keys(await import('./index.js'))).toMatchSnapshot();
  });

  it('exports the rollback on its own entry', async () => {
    expect(Object.keys(await import('./rollback.js'))).toMatchSnapshot();
  });
});
