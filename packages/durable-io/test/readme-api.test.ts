import { describe, expect, it } from 'vitest';
import { checkReadmeApi } from '../src/testing/readme-api.js';

describe('README API tables', () => {
  it('name every export, and only exports', async () => {
    const report = await checkReadmeApi(new URL('..', import.meta.url), [
      {
        specifier: '@hankweave/durable-io',
        source: 'src/index.ts',
        load: () => import('../src/index.js'),
      },
      {
        specifier: '@hankweave/durable-io/testing',
        source: 'src/testing.ts',
        load: () => import('../src/testing.js'),
      },
    ]);
    expect(report).toEqual({ undocumented: [], unknown: [] });
  });
});
