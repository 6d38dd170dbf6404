import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withPrivateTmpdir } from '@hankweave/durable-io/testing';
import { describe, expect, it, vi } from 'vitest';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));

describe('README', () => {
  it('runs its quick start and prints what the comments say', async () => {
    const snippet = /```ts\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1];
    expect(snippet).toBeDefined();
    mkdirSync(TMP, { recursive: true });
    const file = `${TMP}checkpoints-readme-${process.pid}.ts`;
    writeFileSync(file, snippet as string);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      // The quick start's execution directory goes under os.tmpdir(): one of ours, removed after.
      await withPrivateTmpdir(() => import(pathToFileURL(file).href));
      expect(log.mock.calls).toEqual([
        ['M', 'docs/notes.md'],
        ['# Draft\n'],
        [['completed:revise', 'completed:draft']],
      ]);
    } finally {
      log.mockRestore();
      rmSync(file, { force: true });
    }
  });
});
