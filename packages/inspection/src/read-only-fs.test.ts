import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { readOnlyFs } from './read-only-fs.js';

afterEach(cleanupTempDirs);

describe('readOnlyFs', () => {
  it('reads from disk and drops every write', async () => {
    const dir = (await makeTempDir('hankweave-cli-rofs-')).path;
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'kept');
    expect(await readOnlyFs.readFile(file, 'utf8')).toBe('kept');
    expect(readOnlyFs.readFileSync(file, 'utf8')).toBe('kept');
    expect(readOnlyFs.readdirSync(dir)).toEqual(['a.txt']);
    expect(readOnlyFs.statSync(file).size).toBe(4);

    await readOnlyFs.writeFile(file, 'changed');
    await readOnlyFs.appendFile(file, 'more');
    await readOnlyFs.utimes(file, 0, 0);
    await readOnlyFs.copyFile(file, join(dir, 'b.txt'));
    await readOnlyFs.link(file, join(dir, 'c.txt'));
    await readOnlyFs.rename(file, join(dir, 'd.txt'));
    await readOnlyFs.mkdir(join(dir, 'sub'));
    const handle = await readOnlyFs.open(join(dir, 'e.txt'), 'wx');
    await handle.writeFile('dropped');
    await handle.sync();
    await handle.close();
    await readOnlyFs.unlink(file);
    await readOnlyFs.rm(dir, { recursive: true });

    expect(readFileSync(file, 'utf8')).toBe('kept');
    expect(readOnlyFs.readdirSync(dir)).toEqual(['a.txt']);
    expect((await readOnlyFs.stat(file)).mtimeMs).toBeGreaterThan(0);
  });
});
