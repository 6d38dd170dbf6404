import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// CI runs each README's first ts block (examples/readme-snippets); this runs it here too and
// checks the `// → ...` comments against what it prints. Needs the built dist (self-import).
const ROOT = join(import.meta.dirname, '..');
const TARGET = join(ROOT, '.tmp', `readme-quick-start-${process.pid}.ts`);

describe('README quick start', () => {
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
    for (const text of expected) expect(lines).toContain(text);
    expect(lines).toContain('research failed during running: API request timed out after 30s');
  });
});
