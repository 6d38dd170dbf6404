import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, input, makeExecution } from '../test/helpers.js';

afterEach(cleanupExecutions);

// The index is rewritten in place through the inode kept as `index-hankweave-spare`. Whoever
// can write the git dir could plant a link under that name: the index must never be written
// through it.
describe('the spare index file', () => {
  it.each(['symlink', 'hard link'])('is never written through a planted %s', async (kind) => {
    const outside = mkdtempSync(join(tmpdir(), 'hankweave-spare-victim-'));
    try {
      const victim = join(outside, 'victim.txt');
      writeFileSync(victim, 'precious');
      const execution = makeExecution();
      execution.write('a.txt', 'one');
      const engine = await execution.open();
      await engine.checkpoint(input(['a.txt']));
      execution.write('a.txt', 'two');
      await engine.checkpoint(input(['a.txt']));
      const spare = join(engine.gitDir, 'index-hankweave-spare');
      rmSync(spare, { force: true });
      if (kind === 'symlink') symlinkSync(victim, spare);
      else linkSync(victim, spare);
      execution.write('a.txt', 'three');
      await engine.checkpoint(input(['a.txt']));
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      // The index is still git's: native git reads it and sees the work tree clean.
      expect(execution.git('status', '--porcelain', '--', 'a.txt')).toBe('');
      await engine.close();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
