import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The AI SDK, its providers and Ajv load with the first sentinel, not with the package: a hank
// without sentinels (most of them) must not pay for them at every runtime start. A child process
// records every module Node loads (an ESM hook and CommonJS's compile) at three moments: after
// the import, after a codon with no sentinel, after a codon with one.
const dist = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
const dir = mkdtempSync(join(tmpdir(), 'sentinels-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOG = join(dir, 'loaded.txt');
writeFileSync(
  join(dir, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(LOG)}, url + '\\n');
  return next(url, context);
}
`,
);
writeFileSync(
  join(dir, 'main.mjs'),
  `import { appendFileSync, mkdirSync } from 'node:fs';
import { createRequire, register } from 'node:module';
register('./hooks.mjs', import.meta.url);
const Module = createRequire(import.meta.url)('module');
const compile = Module.prototype._compile;
Module.prototype._compile = function (code, file) {
  appendFileSync(${JSON.stringify(LOG)}, 'cjs:' + file + '\\n');
  return compile.call(this, code, file);
};
const mark = (name) => appendFileSync(${JSON.stringify(LOG)}, '--- ' + name + '\\n');
const { SentinelManager } = await import(${JSON.stringify(dist)});
mark('imported');
const root = ${JSON.stringify(dir)};
for (const sub of ['hank', 'exec/.hankweave', 'exec/agentRoot']) mkdirSync(root + '/' + sub, { recursive: true });
const manager = new SentinelManager({
  hankDir: root + '/hank',
  hankweaveDir: root + '/exec/.hankweave',
  agentRoot: root + '/exec/agentRoot',
  env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'x' },
  emit: () => {},
});
await manager.loadForCodon({ codonId: 'plain#0', codonName: 'Plain', entries: [] });
mark('no sentinel');
const loaded = await manager.loadForCodon({
  codonId: 'observed#0',
  codonName: 'Observed',
  entries: [{ sentinelConfig: {
    id: 'narrator', name: 'Narrator', model: 'anthropic/claude-haiku-4-5',
    trigger: { type: 'event', on: ['assistant.action'] },
    execution: { strategy: 'immediate' },
    userPromptText: 'NARRATE',
  } }],
});
if (loaded.failed.length > 0) throw new Error(JSON.stringify(loaded.failed));
mark('one sentinel');
await manager.unload('shutdown');
`,
);

/** The loaded modules of the AI side: the AI SDK, its providers, Ajv. */
const aiSide = (lines: string[]) =>
  lines.filter((line) => /\/node_modules\/(ai|ajv|@ai-sdk\/[^/]+)\//.test(line));

describe('the AI SDK loads with the first sentinel', () => {
  it('not with the package, nor for a codon without sentinels', () => {
    execFileSync(process.execPath, [join(dir, 'main.mjs')], { stdio: 'pipe', timeout: 30_000 });
    const text = readFileSync(LOG, 'utf8');
    const [imported, noSentinel, oneSentinel] = text
      .split(/^--- .*$/m)
      .map((part) => part.split('\n').filter(Boolean));
    expect(imported?.some((line) => line.includes('/packages/sentinels/dist/index.js'))).toBe(true);
    expect(aiSide(imported ?? [])).toEqual([]);
    expect(aiSide(noSentinel ?? [])).toEqual([]);
    const loadedWithSentinel = aiSide(oneSentinel ?? []);
    for (const name of [
      '/node_modules/ai/',
      '/node_modules/ajv/',
      '/node_modules/@ai-sdk/anthropic/',
    ])
      expect(
        loadedWithSentinel.some((line) => line.includes(name)),
        name,
      ).toBe(true);
  });
});
