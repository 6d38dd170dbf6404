import { join } from 'node:path';
import { runReadmeQuickStart } from '@hankweave/durable-io/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/built-package.js';

// The README's first ts block, run as a user would (it imports '@hankweave/sessions', the built
// dist), with its `// → ...` comments checked against what it prints.
describe('README quick start', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('runs and prints what its comments say', async () => {
    const { printed, promised } = await runReadmeQuickStart(join(import.meta.dirname, '..'));
    expect(promised).toHaveLength(3);
    expect(printed).toEqual(promised);
  });
});
