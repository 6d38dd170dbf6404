import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withPrivateTmpdir } from './temp-dir.js';

describe('withPrivateTmpdir()', () => {
  it('points os.tmpdir() at a traversable dir of its own, then removes it and restores TMPDIR', async () => {
    const before = process.env.TMPDIR;
    const seen = await withPrivateTmpdir(async () => {
      const dir = tmpdir();
      mkdirSync(join(dir, 'left-behind', 'deep'), { recursive: true });
      return { dir, mode: statSync(dir).mode & 0o777 };
    });
    expect(seen.dir).not.toBe(tmpdir());
    expect(seen.mode).toBe(0o755);
    expect(existsSync(seen.dir)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });

  it('cleans up and restores TMPDIR when the function throws', async () => {
    const before = process.env.TMPDIR;
    let dir = '';
    await expect(
      withPrivateTmpdir(async () => {
        dir = tmpdir();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(dir)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });
});
