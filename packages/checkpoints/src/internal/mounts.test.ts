import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasNoMountsBelow, mountPointsOf } from './mounts.js';

describe('mountPointsOf', () => {
  it('reads the fifth field of each line and decodes the octal escapes', () => {
    const text = [
      '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
      '88 68 254:0 /tmp/victim /tmp/exec/co\\040de\\012x.txt rw - ext4 /dev/vda rw',
      '89 68 0:26 / /back\\134slash rw - tmpfs tmpfs rw',
      '',
    ].join('\n');
    expect(mountPointsOf(text)).toEqual(['/', '/tmp/exec/co de\nx.txt', '/back\\slash']);
  });
});

describe('hasNoMountsBelow', () => {
  it.runIf(process.platform === 'linux')(
    'is true for a plain directory and false for one above a mount',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'hankweave-mounts-'));
      try {
        expect(hasNoMountsBelow(dir)).toBe(true);
        // /proc is a mount below /: the root has a mount below it.
        expect(hasNoMountsBelow('/')).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('is false when the directory does not exist (nothing can be known)', () => {
    expect(hasNoMountsBelow(join(tmpdir(), 'hankweave-no-such-dir-for-mounts'))).toBe(false);
  });
});
