import { checkReadmeApi } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';

describe('README API tables', () => {
  it('name every export, and only exports', async () => {
    const report = await checkReadmeApi(new URL('..', import.meta.url), [
      {
        specifier: '@hankweave/files',
        source: 'src/index.ts',
        load: () => import('../src/index.js'),
      },
      {
        specifier: '@hankweave/files/testing',
        source: 'src/testing.ts',
        load: () => import('../src/testing.js'),
      },
    ]);
    expect(report).toEqual({ undocumented: [], unknown: [] });
  });
});
