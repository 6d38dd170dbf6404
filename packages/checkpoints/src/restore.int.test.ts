import { lstatSync, readFileSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type Fs, nodeFs } from '@hankweave/durable-io';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, type Execution, input, makeExecution } from '../test/helpers.js';
import { assertRepoMatchesGit } from './testing.js';

afterEach(cleanupExecutions);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const read = (x: Execution, path: string) => readFileSync(join(x.root, path), 'utf8');
const exists = (x: Execution, path: string) => {
  try {
    lstatSync(join(x.root, path));
    return true;
  } catch {
    return false;
  }
};

describe('CheckpointEngine', () => {
  describe('restore()', () => {
    it('deletes tracked files no checkpoint has yet when told they are tracked, and only those', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('ledger/a.txt', 'a\n');
      const v1 = await engine.checkpoint(input(['ledger/a.txt']));
      // An attempt that crashed before its checkpoint: a new tracked file and an edit.
      x.write('ledger/tally.txt', 'half a tally\n');
      x.write('ledger/deep/new.txt', 'new\n');
      x.write('ledger/a.txt', 'edited\n');
      x.write('scratch.log', 'not tracked\n');

      const result = await engine.restore(v1.sha, {
        tracked: ['ledger/a.txt', 'ledger/deep/new.txt', 'ledger/tally.txt', 'ledger/gone.txt'],
      });
      expect(result).toEqual({
        sha: v1.sha,
        written: ['ledger/a.txt'],
        deleted: ['ledger/deep/new.txt', 'ledger/tally.txt'],
      });
      expect(read(x, 'ledger/a.txt')).toBe('a\n');
      expect(exists(x, 'ledger/tally.txt')).toBe(false);
      expect(exists(x, 'ledger/deep')).toBe(false); // its emptied directory too
      expect(read(x, 'scratch.log')).toBe('not tracked\n');
      expect(x.git('status', '--porcelain')).toBe('');
      await assertRepoMatchesGit(engine);
      await expect(engine.restore(v1.sha, { tracked: ['../outside.txt'] })).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_PATH',
      });
    });

    it('makes tracked files match exactly, leaves untracked files and detaches HEAD', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('keep.txt', 'keep\n');
      x.write('edit.txt', 'v1\n');
      x.write('gone/later.txt', 'exists in v1\n');
      x.write('run.sh', 'echo 1\n', 0o755);
      const v1 = await engine.checkpoint(
        input(['keep.txt', 'edit.txt', 'gone/later.txt', 'run.sh']),
      );
      x.write('edit.txt', 'v2\n');
      x.remove('gone');
      x.write('new/file.txt', 'new in v2\n');
      x.write('run.sh', 'echo 2\n', 0o644);
      const v2 = await engine.checkpoint(input(['keep.txt', 'edit.txt', 'new/file.txt', 'run.sh']));
      x.write('untracked.log', 'leave me\n');
      x.write('new/untracked.txt', 'leave me too\n');

      const result = await engine.restore(v1.sha);
      expect(result).toEqual({
        sha: v1.sha,
        written: ['edit.txt', 'gone/later.txt', 'run.sh'],
        deleted: ['new/file.txt'],
      });
      expect(read(x, 'edit.txt')).toBe('v1\n');
      expect(read(x, 'gone/later.txt')).toBe('exists in v1\n');
      expect(statSync(join(x.root, 'run.sh')).mode & 0o100).toBe(0o100);
      expect(exists(x, 'new/file.txt')).toBe(false);
      expect(read(x, 'untracked.log')).toBe('leave me\n');
      expect(read(x, 'new/untracked.txt')).toBe('leave me too\n');
      expect(await engine.head()).toEqual({ sha: v1.sha, branch: null });
      expect(x.git('rev-parse', 'run-run1').trim()).toBe(v2.sha);
      expect(x.git('status', '--porcelain')).toBe('');
      await assertRepoMatchesGit(engine);

      await engine.restore(v2.sha);
      expect(read(x, 'edit.txt')).toBe('v2\n');
      expect(exists(x, 'gone')).toBe(false); // emptied directories go too
      expect(x.git('status', '--porcelain')).toBe('');
      await assertRepoMatchesGit(engine);
    });

    it('reverts uncommitted edits to tracked files and touches nothing that already matches', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const files = Array.from({ length: 30 }, (_, i) => `d${i % 3}/f${i}.txt`);
      for (const file of files) x.write(file, `${file}\n`);
      await sleep(30);
      const base = await engine.checkpoint(input(files));
      const before = lstatSync(join(x.root, 'd0/f3.txt'));
      x.write('d1/f1.txt', 'scribbled\n');
      x.remove('d2/f2.txt');
      const result = await engine.restore(base.sha);
      expect(result.written).toEqual(['d1/f1.txt', 'd2/f2.txt']);
      const after = lstatSync(join(x.root, 'd0/f3.txt'));
      expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
      expect(read(x, 'd1/f1.txt')).toBe('d1/f1.txt\n');
      await assertRepoMatchesGit(engine);
    });

    it('trusts the changed hint for unlisted files', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('a.txt', 'a\n');
      x.write('b.txt', 'b\n');
      await sleep(30);
      const base = await engine.checkpoint(input(['a.txt', 'b.txt']));
      await sleep(30);
      x.write('a.txt', 'edited a\n');
      x.write('b.txt', 'edited b\n');
      const result = await engine.restore(base.sha, { changed: ['a.txt'] });
      expect(result.written).toEqual(['a.txt']);
      expect(read(x, 'a.txt')).toBe('a\n');
      expect(read(x, 'b.txt')).toBe('edited b\n');
    });

    it('swaps files, symlinks and directories in place as git checkout -f does', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('thing', 'a file\n');
      x.write('dir/inner.txt', 'inner\n');
      x.write('target.txt', 'target\n');
      x.link('link', 'target.txt');
      const v1 = await engine.checkpoint(input(['thing', 'dir/inner.txt', 'link', 'target.txt']));
      x.remove('thing');
      x.write('thing/nested.txt', 'now a directory\n');
      x.remove('dir');
      x.write('dir', 'now a file\n');
      x.remove('link');
      x.write('link', 'now a regular file\n');
      const v2 = await engine.checkpoint(input(['thing/nested.txt', 'dir', 'link', 'target.txt']));
      expect(x.git('diff', '--name-status', '--no-renames', v1.sha, v2.sha)).toBe(
        'A\tdir\nD\tdir/inner.txt\nT\tlink\nD\tthing\nA\tthing/nested.txt\n',
      );
      await engine.restore(v1.sha);
      expect(read(x, 'thing')).toBe('a file\n');
      expect(read(x, 'dir/inner.txt')).toBe('inner\n');
      expect(readlinkSync(join(x.root, 'link'))).toBe('target.txt');
      await assertRepoMatchesGit(engine);
      await engine.restore(v2.sha);
      expect(read(x, 'thing/nested.txt')).toBe('now a directory\n');
      expect(read(x, 'dir')).toBe('now a file\n');
      expect(lstatSync(join(x.root, 'link')).isSymbolicLink()).toBe(false);
      expect(x.git('status', '--porcelain')).toBe('');
      await assertRepoMatchesGit(engine);
    });

    it('never writes through a symlink that replaced a tracked directory', async () => {
      const x = makeExecution();
      const outside = makeExecution();
      const engine = await x.open();
      x.write('lib/code.ts', 'original\n');
      const v1 = await engine.checkpoint(input(['lib/code.ts']));
      x.remove('lib');
      x.link('lib', outside.root);
      await engine.restore(v1.sha);
      expect(lstatSync(join(x.root, 'lib')).isDirectory()).toBe(true);
      expect(read(x, 'lib/code.ts')).toBe('original\n');
      expect(exists(outside, 'code.ts')).toBe(false);
    });

    // Another process puts a link where restore has just unlinked a file, before it creates the
    // file again: the create is exclusive, so it fails rather than write through the link. (The
    // file's mode changes, so it is replaced, not rewritten in place: restore-in-place.int.test.ts
    // attacks that path.)
    it('never writes through a link planted between its unlink and its create', async () => {
      const x = makeExecution();
      const outside = makeExecution();
      outside.write('victim.txt', 'precious\n');
      const victim = join(outside.root, 'victim.txt');
      const racing: Fs = {
        ...nodeFs,
        unlink: async (path) => {
          await nodeFs.unlink(path);
          if (String(path).endsWith('/code.ts')) symlinkSync(victim, path);
        },
      };
      const engine = await x.open({ fs: racing });
      x.write('code.ts', 'v1\n');
      const v1 = await engine.checkpoint(input(['code.ts']));
      x.write('code.ts', 'v2, not checkpointed\n', 0o755);
      await expect(engine.restore(v1.sha)).rejects.toMatchObject({
        code: 'CHECKPOINT_STORAGE_FAILED',
        message: expect.stringMatching(/cannot restore code.ts/),
      });
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    });

    it('restores across run branches and back, keeping every timeline', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('f.txt', 'A1\n');
      const a1 = await engine.checkpoint(input(['f.txt'], { runId: 'A' }));
      x.write('f.txt', 'A2\n');
      const a2 = await engine.checkpoint(input(['f.txt'], { runId: 'A' }));
      await engine.restore(a1.sha);
      x.write('f.txt', 'B1\n');
      x.write('g.txt', 'only on B\n');
      const b1 = await engine.checkpoint(input(['f.txt', 'g.txt'], { runId: 'B' }));
      await engine.restore(a2.sha.slice(0, 10));
      expect(read(x, 'f.txt')).toBe('A2\n');
      expect(exists(x, 'g.txt')).toBe(false);
      await engine.restore(b1.sha);
      expect(read(x, 'g.txt')).toBe('only on B\n');
      expect(x.git('rev-parse', 'run-A', 'run-B').trim().split('\n')).toEqual([a2.sha, b1.sha]);
      await expect(engine.restore('0000000')).rejects.toMatchObject({
        code: 'CHECKPOINT_NOT_FOUND',
      });
      await assertRepoMatchesGit(engine);
    });

    it('restores the initial checkpoint by deleting every tracked file', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('a/b/c.txt', 'c\n');
      x.write('untracked.txt', 'u\n');
      await engine.checkpoint(input(['a/b/c.txt']));
      const result = await engine.restore(engine.initialCheckpoint);
      expect(result.deleted).toEqual(['a/b/c.txt']);
      expect(exists(x, 'a')).toBe(false);
      expect(exists(x, 'untracked.txt')).toBe(true);
      await assertRepoMatchesGit(engine);
    });
  });
});
