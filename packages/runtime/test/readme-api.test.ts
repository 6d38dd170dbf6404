import { checkReadmeApi } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';

describe('README API tables', () => {
  it('name every export, and only exports', async () => {
    const report = await checkReadmeApi(new URL('..', import.meta.url), [
      {
        specifier: '@hankweave/runtime',
        source: 'src/index.ts',
        load: () => import('../src/index.js'),
      },
      {
        specifier: '@hankweave/runtime/testing',
        source: 'src/testing.ts',
        load: () => import('../src/testing.js'),
      },
      {
        specifier: '@hankweave/runtime/layout',
        source: 'src/layout.ts',
        load: () => import('../src/layout.js'),
      },
    ]);
    expect(report).toEqual({ undocumented: [], unknown: [] });
  });
});
