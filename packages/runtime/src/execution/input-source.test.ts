import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, createFaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { inputFileName, storeInputText } from './input-source.js';

afterAll(() => cleanupTempDirs());

describe('storeInputText', () => {
  it('names the file by the sha256 of the text and writes it once', async () => {
    const cacheDir = join((await makeTempDir('inputs-')).path, 'inputs');
    const path = await storeInputText('hello\n', { cacheDir });
    // sha256("hello\n") = 5891b5b522d5df08...
    expect(path).toBe(join(cacheDir, 'input-5891b5b522d5df08.txt'));
    expect(readFileSync(path, 'utf8')).toBe('hello\n');
    const mtime = statSync(path).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await storeInputText('hello\n', { cacheDir })).toBe(path);
    expect(statSync(path).mtimeMs).toBe(mtime);
    expect(await storeInputText('other', { cacheDir })).not.toBe(path);
    expect(readdirSync(cacheDir).sort()).toEqual(
      [inputFileName('hello\n'), inputFileName('other')].sort(),
    );
  });

  it('never leaves a partial input under its name; replaces one that holds something else', async () => {
    const cacheDir = (await makeTempDir('inputs-')).path;
    // A crash half-way through writing: the content-addressed name never holds half the text.
    const faulty = createFaultyFs({ failAt: 'writeFile', mode: 'crash' });
    await expect(storeInputText('torn text', { cacheDir, fs: faulty })).rejects.toThrow();
    expect(readdirSync(cacheDir).filter((name) => name === inputFileName('torn text'))).toEqual([]);
    // A file of that name with other bytes (written by something else) is replaced.
    writeFileSync(join(cacheDir, inputFileName('torn text')), 'torn');
    const path = await storeInputText('torn text', { cacheDir });
    expect(readFileSync(path, 'utf8')).toBe('torn text');
  });
});
