import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withPrivateTmpdir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Libraries only: the CLI's README shows shell commands, which its own tests run.
const readmes = readdirSync(`${REPO}packages`)
  .map((name) => `packages/${name}`)
  .filter(
    (dir) => existsSync(`${REPO}${dir}/README.md`) && existsSync(`${REPO}${dir}/package.json`),
  );

function firstTsBlock(markdown: string): string | undefined {
  return /```ts\n([\s\S]*?)```/.exec(markdown)?.[1];
}

describe('README quick starts', () => {
  it.each(readmes)('%s: the first ts block runs', async (dir) => {
    const name = JSON.parse(readFileSync(`${REPO}${dir}/package.json`, 'utf8')).name as string;
    // The snippet can only import the package if it is a dependency here (and built first).
    expect(
      Object.keys(manifest.dependencies),
      `add ${name} to readme-snippets' dependencies`,
    ).toContain(name);
    const snippet = firstTsBlock(readFileSync(`${REPO}${dir}/README.md`, 'utf8'));
    expect(snippet, `${dir}/README.md needs a runnable \`\`\`ts quick start`).toBeDefined();
    mkdirSync(TMP, { recursive: true });
    const file = `${TMP}${dir.replaceAll('/', '-')}.ts`;
    writeFileSync(file, snippet as string);
    // A quick start makes its demo directories under os.tmpdir() and leaves them, as a reader's
    // copy would: it runs with a temp dir of its own, removed after.
    await withPrivateTmpdir(() => import(pathToFileURL(file).href));
  });
});
