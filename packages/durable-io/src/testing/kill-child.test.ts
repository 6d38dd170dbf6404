import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnChild } from './kill-child.js';
import { cleanupTempDirs, makeTempDir } from './temp-dir.js';

afterEach(cleanupTempDirs);

const childSource = `
import { writeSync } from 'node:fs';
const mode = process.argv[2];
if (mode === 'exit') { process.stderr.write('bad input\\n'); process.exit(3); }
let n = 0;
process.stdin?.on?.('data', (chunk) => writeSync(1, 'got ' + chunk.toString().trim() + '\\n'));
writeSync(1, 'ready\\n');
setInterval(() => writeSync(1, 'tick ' + n++ + '\\n'), 5);
`;

async function script(): Promise<string> {
  const { path } = await makeTempDir('kill-child-');
  const file = join(path, 'child.mjs');
  await writeFile(file, childSource);
  return file;
}

describe('spawnChild()', () => {
  it('reads complete lines, talks on stdin and SIGKILLs a live child', async () => {
    const child = spawnChild(await script(), ['loop'], { stdin: true });
    await child.waitForLine('ready');
    child.send('hello\n');
    await child.waitForLine('got hello');
    await child.waitForLine(/tick [3-9]/);
    const exit = await child.kill();
    expect(exit.signal).toBe('SIGKILL');
    expect(exit.lines[0]).toBe('ready');
    expect(exit.lines.every((line) => line.length > 0)).toBe(true);
  });

  it('rejects a wait when the child exits first, with its stderr', async () => {
    const child = spawnChild(await script(), ['exit']);
    await expect(child.waitForLine('ready')).rejects.toThrow(/bad input/);
    expect((await child.exited).code).toBe(3);
  });

  it('kills a hung child after the guard time', async () => {
    const child = spawnChild(await script(), ['loop'], { guardMs: 300 });
    const exit = await child.exited;
    expect(exit.signal).toBe('SIGKILL');
  });
});
