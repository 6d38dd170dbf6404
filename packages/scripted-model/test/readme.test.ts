import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

const packageFile = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const readme = await readFile(packageFile('README.md'), 'utf8');

describe('README.md', () => {
  it('documents the script format with the example the agent tests run', async () => {
    const section = readme.slice(readme.indexOf('## Script format'));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    const example = await readFile(packageFile('examples/write-file.script.json'), 'utf8');
    expect(block).toBe(example);
  });

  it('has a quick start that runs offline', async () => {
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toContain("from '@hankweave/scripted-model'");
    // Run it against the sources, so the test needs no build.
    const source = String(snippet).replace(
      "'@hankweave/scripted-model'",
      JSON.stringify(pathToFileURL(packageFile('src/index.ts')).href),
    );
    await mkdir(packageFile('.tmp'), { recursive: true });
    const file = packageFile('.tmp/readme-quick-start.ts');
    await writeFile(file, source);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await import(pathToFileURL(file).href);
      expect(log.mock.calls[0]).toEqual(['Hello from the script!']);
      expect(log.mock.calls[1]?.[0]).toMatchObject({ conversation: 0, turn: 0, served: 'content' });
    } finally {
      log.mockRestore();
    }
  });
});
