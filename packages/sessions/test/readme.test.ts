import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt } from './helpers/built-package.js';

// The README's first ts block, run as a user would (it imports '@hankweave/sessions', the built
// dist), with its `// → ...` comments checked against what it prints.
const ROOT = join(import.meta.dirname, '..');
const TARGET = join(ROOT, '.tmp', `readme-quick-start-${process.pid}.ts`);

describe('README quick start', () => {
  beforeAll(() => ensureBuilt(), 120_000);
  afterAll(async () => {
    await rm(TARGET, { force: true });
  });

  it('runs and prints what its comments say', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    await mkdir(join(ROOT, '.tmp'), { recursive: true });
    await writeFile(TARGET, block as string);
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
    try {
      await import(TARGET);
    } finally {
      log.mockRestore();
    }
    const expected = [...(block as string).matchAll(/\/\/ → (.*)$/gm)].map((match) => match[1]);
    expect(expected).toHaveLength(3);
    expect(lines).toEqual(expected);
  });
});
