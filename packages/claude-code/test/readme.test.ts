import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = await readFile(`${packageDir}README.md`, 'utf8');

describe('README', () => {
  it('runs its quick start: the real agent writes the file', async () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(block).toContain("from '@hankweave/claude-code'");
    // The snippet has no type annotations, so it runs as JavaScript against the built packages.
    const dist = pathToFileURL(`${packageDir}dist/index.js`).href;
    const scriptedModel = pathToFileURL(
      createRequire(import.meta.url).resolve('@hankweave/scripted-model'),
    ).href;
    const dir = await makeTempDir('hw-claude-code-readme-');
    const file = join(dir.path, 'quick-start.mjs');
    await writeFile(
      file,
      block
        .replaceAll("'@hankweave/claude-code'", `'${dist}'`)
        .replaceAll("'@hankweave/scripted-model'", `'${scriptedModel}'`),
    );
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [file]);
      expect(stdout).toContain('tool_use');
      expect(stdout).toContain('message Wrote hello.txt.');
      expect(stdout).toContain('0 0.000036 hello');
    } finally {
      await dir.cleanup();
    }
  });
});
