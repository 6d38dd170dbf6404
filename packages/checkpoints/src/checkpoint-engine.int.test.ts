import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, input, makeExecution } from '../test/helpers.js';
import { assertRepoMatchesGit } from './testing.js';

afterEach(cleanupExecutions);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CheckpointEngine', () => {
  describe('open()', () => {
    it('creates the shadow repository, the isolated gitconfig and the initial commit', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const checkpoints = join(x.exec, '.hankweave', 'checkpoints');
      expect(engine.gitDir).toBe(join(checkpoints, '.hankweavecheckpoints'));
      expect(engine.workTree).toBe(x.root);
      const gitconfig = readFileSync(join(checkpoints, '.gitconfig'), 'utf8');
      expect(gitconfig).toContain('name = Hankweave Runtime');
      expect(gitconfig).toContain('email = runtime@hankweave.dev');
      expect(gitconfig).toMatch(/\[commit\]\s+gpgsign = false/);
      expect(x.git('log', '--format=%H %s', 'main').trim()).toBe(
        `${engine.initialCheckpoint} Initial checkpoint setup`,
      );
      expect(x.git('cat-file', '-p', engine.initialCheckpoint)).toContain(
        'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      );
      expect(x.git('config', 'user.name').trim()).toBe('Hankweave Runtime');
      // No GIT_WORK_TREE: core.worktree finds agentRoot.
      expect(x.git('rev-parse', '--show-toplevel').trim()).toBe(x.root);
      // Temp names: the temp repository's `.tmp-` and the atomic writes' `.{hex}.tmp`.
      expect(readdirSync(checkpoints).filter((name) => /\.tmp-|\.tmp$/.test(name))).toEqual([]);
      await assertRepoMatchesGit(engine);
    });

    it('reuses an existing repository and clears stale locks and temp files', async () => {
      const x = makeExecution();
      const first = await x.open();
      x.write('a.txt', 'a\n');
      await sleep(30); // past the file system's timestamp tick, so a.txt is not racy
      const made = await first.checkpoint(input(['a.txt']));
      await first.close();
      const gitDir = first.gitDir;
      writeFileSync(join(gitDir, 'index.lock'), '');
      writeFileSync(join(gitDir, 'refs', 'heads', 'run1.lock'), 'junk');
      writeFileSync(join(gitDir, 'objects', 'pack', 'tmp_pack_abc'), 'junk');
      writeFileSync(
        join(gitDir, 'objects', 'pack', 'pack-0000000000000000000000000000000000000000.pack'),
        'orphan',
      );
      const tempRepo = join(
        x.exec,
        '.hankweave',
        'checkpoints',
        '.hankweavecheckpoints.tmp-1-2-abc',
      );
      writeFileSync(tempRepo, 'junk');
      // What an atomic write killed before its rename leaves (durable-io's temp name).
      const tempConfig = join(x.exec, '.hankweave', 'checkpoints', '.gitconfig.0123456789ab.tmp');
      const tempPack = join(gitDir, 'objects', 'pack', 'pack-1.idx.0123456789ab.tmp');
      writeFileSync(tempConfig, 'junk');
      writeFileSync(tempPack, 'junk');
      const second = await x.open();
      expect(second.initialCheckpoint).toBe(first.initialCheckpoint);
      expect((await second.head()).sha).toBe(made.sha);
      expect(existsSync(join(gitDir, 'index.lock'))).toBe(false);
      expect(existsSync(join(gitDir, 'refs', 'heads', 'run1.lock'))).toBe(false);
      const packs = readdirSync(join(gitDir, 'objects', 'pack'));
      expect(
        packs.filter((name) => name.startsWith('tmp_') || name.startsWith('pack-0000')),
      ).toEqual([]);
      expect(packs.length % 2).toBe(0); // each .pack with its .idx
      expect(existsSync(tempRepo)).toBe(false);
      expect(existsSync(tempConfig)).toBe(false);
      expect(existsSync(tempPack)).toBe(false);
      const next = await second.checkpoint(input(['a.txt']));
      expect(next.parent).toBe(made.sha);
      expect(next.hashed).toBe(0); // the persisted stat cache vouched for a.txt
      await assertRepoMatchesGit(second);
    });

    it('fails with CHECKPOINT_REPO_CORRUPT when HEAD is garbage', async () => {
      const x = makeExecution();
      const engine = await x.open();
      await engine.close();
      writeFileSync(join(engine.gitDir, 'HEAD'), 'nonsense\n');
      await expect(x.open()).rejects.toMatchObject({ code: 'CHECKPOINT_REPO_CORRUPT' });
    });
  });

  describe('checkpoint()', () => {
    it('writes seed 002 messages on run branches that native git reads back', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('src/schema.ts', 'export {};\n');
      const when = new Date('2024-01-15T14:23:30.000Z');
      const result = await engine.checkpoint({
        type: 'completed',
        codonId: 'build-schema',
        codonName: 'Build Zod Schemas',
        runId: '20240115-abc123',
        durationMs: 45000,
        files: ['src/schema.ts'],
        timestamp: when,
      });
      expect(result.branch).toBe('run-20240115-abc123');
      expect(x.git('log', '-1', '--format=%B', result.sha)).toBe(
        'completed:build-schema [run:20240115-abc123] Build Zod Schemas\n\nCodon: Build Zod Schemas\nStatus: completed\nTimestamp: 2024-01-15T14:23:30.000Z\nDuration: 45000ms\n\n',
      );
      expect(x.git('log', '-1', '--format=%an <%ae> %ct', result.sha).trim()).toBe(
        `Hankweave Runtime <runtime@hankweave.dev> ${when.getTime() / 1000}`,
      );
      expect(x.git('log', '--oneline', '--all')).toContain(
        `${result.sha.slice(0, 7)} completed:build-schema`,
      );
      expect(x.git('log', '--all', '--format=%H', '--grep=build-schema').trim()).toBe(result.sha);
      expect(x.git('symbolic-ref', 'HEAD').trim()).toBe('refs/heads/run-20240115-abc123');
      expect(x.git('show', `${result.sha}:src/schema.ts`)).toBe('export {};\n');
      expect(x.git('status', '--porcelain')).toBe('');
      await assertRepoMatchesGit(engine);
    });

    it('stores symlinks as links, keeps the executable bit and records deletions', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
      x.write('docs/readme.md', '# hi\n');
      x.link('latest', 'docs/readme.md');
      x.link('dangling', 'does/not/exist');
      const first = await engine.checkpoint(
        input(['bin/run.sh', 'docs/readme.md', 'latest', 'dangling']),
      );
      const tree = x.git('ls-tree', '-r', first.sha);
      expect(tree).toMatch(/^100755 blob \w+\tbin\/run\.sh$/m);
      expect(tree).toMatch(/^120000 blob \w+\tlatest$/m);
      expect(tree).toMatch(/^120000 blob \w+\tdangling$/m);
      expect(x.git('show', `${first.sha}:latest`)).toBe('docs/readme.md');
      x.remove('docs/readme.md');
      const second = await engine.checkpoint(input(['bin/run.sh', 'latest', 'dangling']));
      expect(x.git('diff', '--name-status', first.sha, second.sha).trim()).toBe(
        'D\tdocs/readme.md',
      );
      await assertRepoMatchesGit(engine);
    });

    it('commits even when nothing changed, and an empty list makes the empty tree', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('a.txt', 'a\n');
      await sleep(30);
      const first = await engine.checkpoint(input(['a.txt']));
      const same = await engine.checkpoint(input(['a.txt']));
      expect(same.sha).not.toBe(first.sha);
      expect(same.tree).toBe(first.tree);
      expect(same.hashed).toBe(0);
      const empty = await engine.checkpoint(input([]));
      expect(empty.tree).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
      expect(x.git('ls-tree', '-r', empty.sha)).toBe('');
      await assertRepoMatchesGit(engine);
    });

    it('orders unicode, spaces and tricky names exactly as git does', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const names = [
        'a b/c d.txt',
        'a-b',
        'a.b',
        'a/b',
        'a0',
        'Ä/ü.txt',
        'z/é.md',
        '日本/語.txt',
        'emoji/😀.txt',
        'q"uote',
        'x\ty',
      ];
      for (const name of names) x.write(name, `${name}\n`);
      const result = await engine.checkpoint(input(names));
      // Native git computes the same tree from the same files.
      const env = { GIT_INDEX_FILE: join(x.exec, 'scratch-index') };
      const { runNativeGit } = await import('./testing.js');
      runNativeGit(x.exec, ['add', '--', ...names], { env });
      expect(runNativeGit(x.exec, ['write-tree'], { env }).stdout.trim()).toBe(result.tree);
      await assertRepoMatchesGit(engine);
    });

    it('skips nested .git content, oversized files, missing paths and paths through symlinks', async () => {
      const x = makeExecution();
      const engine = await x.open({ maxFileSize: 1000 });
      x.write('ok.txt', 'ok\n');
      x.write('vendor/lib/.git/config', '[core]\n');
      x.write('vendor/lib/file.txt', 'lib\n');
      x.write('big.bin', Buffer.alloc(2000, 1));
      x.write('real/inner.txt', 'inner\n');
      x.link('alias', 'real');
      const files = [
        'ok.txt',
        'vendor/lib/.git/config',
        'vendor/lib/file.txt',
        'big.bin',
        'gone.txt',
        'alias/inner.txt',
        'real',
      ];
      const result = await engine.checkpoint(input(files));
      expect(result.skipped).toEqual([
        { path: 'alias/inner.txt', reason: 'beyond-symlink' },
        { path: 'big.bin', reason: 'too-large', size: 2000 },
        { path: 'gone.txt', reason: 'missing' },
        { path: 'real', reason: 'not-a-file' },
        { path: 'vendor/lib/.git/config', reason: 'git-dir' },
      ]);
      expect(x.git('ls-tree', '-r', '--name-only', result.sha).trim().split('\n')).toEqual([
        'ok.txt',
        'vendor/lib/file.txt',
      ]);
      await assertRepoMatchesGit(engine);
    });

    it('rejects bad input with CHECKPOINT_INVALID_INPUT and bad paths with CHECKPOINT_INVALID_PATH', async () => {
      const x = makeExecution();
      const engine = await x.open();
      await expect(engine.checkpoint(input([], { runId: 'has space' }))).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_INPUT',
      });
      await expect(engine.checkpoint(input([], { runId: 'a..b' }))).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_INPUT',
      });
      await expect(engine.checkpoint(input([], { type: 'bogus' as never }))).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_INPUT',
      });
      await expect(engine.checkpoint(input([], { codonId: 'two words' }))).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_INPUT',
      });
      await expect(engine.checkpoint(input([], { durationMs: -1 }))).rejects.toMatchObject({
        code: 'CHECKPOINT_INVALID_INPUT',
      });
      for (const bad of ['/etc/passwd', '../x', 'a/../b', 'a//b', './a', 'a/', '']) {
        await expect(engine.checkpoint(input([bad]))).rejects.toMatchObject({
          code: 'CHECKPOINT_INVALID_PATH',
        });
      }
      await assertRepoMatchesGit(engine);
    });

    it('hashes only what changed, trusts the changed hint, and re-checks racy entries', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const files = Array.from({ length: 20 }, (_, i) => `dir${i % 4}/f${i}.txt`);
      for (const file of files) x.write(file, `${file}\n`);
      await sleep(30);
      expect((await engine.checkpoint(input(files))).hashed).toBe(20);
      x.write('dir1/f1.txt', 'changed\n');
      const incremental = await engine.checkpoint(input(files));
      expect(incremental.hashed).toBe(1);
      expect(x.git('show', `${incremental.sha}:dir1/f1.txt`)).toBe('changed\n');
      // Same size, same second: only the racy-git rule can see this rewrite.
      x.write('dir2/f2.txt', 'CHANGED!\n'.slice(0, 'dir2/f2.txt\n'.length));
      x.write('dir2/f2.txt', 'dir2/f2.TXT\n');
      const racy = await engine.checkpoint(input(files));
      expect(x.git('show', `${racy.sha}:dir2/f2.txt`)).toBe('dir2/f2.TXT\n');
      // With the hint, an unlisted change is (by contract) not looked at...
      x.write('dir3/f3.txt', 'sneaky\n');
      await sleep(30);
      await engine.checkpoint(input(files, { changed: [] }));
      x.write('dir0/f4.txt', 'hinted\n');
      const hinted = await engine.checkpoint(input(files, { changed: ['dir0/f4.txt'] }));
      expect(x.git('show', `${hinted.sha}:dir0/f4.txt`)).toBe('hinted\n');
      // ...and the walk without the hint picks it up.
      const walked = await engine.checkpoint(input(files));
      expect(x.git('show', `${walked.sha}:dir3/f3.txt`)).toBe('sneaky\n');
      await assertRepoMatchesGit(engine);
    });

    it('writes one pack with an index for large batches', async () => {
      const x = makeExecution();
      const engine = await x.open({ packThreshold: 50 });
      const files = Array.from({ length: 120 }, (_, i) => `p/${i % 7}/f${i}.txt`);
      for (const file of files) x.write(file, `content ${file}\n`.repeat(40));
      const result = await engine.checkpoint(input(files));
      expect(result.packed).toBe(true);
      const packDir = join(engine.gitDir, 'objects', 'pack');
      const idx = readdirSync(packDir).filter((name) => name.endsWith('.idx'));
      expect(idx).toHaveLength(1);
      const verify = x.git('verify-pack', '-v', join(packDir, idx[0] as string));
      expect(verify).toContain(`${result.sha} commit`);
      expect(verify).toMatch(/non delta: 130 objects/); // 120 blobs, 9 trees, 1 commit
      x.write('p/0/f0.txt', 'small change\n');
      expect((await engine.checkpoint(input(files))).packed).toBe(false);
      await assertRepoMatchesGit(engine);
    });

    it('creates a new run branch from a detached HEAD and keeps the old one', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('a.txt', '1\n');
      const one = await engine.checkpoint(input(['a.txt'], { runId: 'A' }));
      x.write('a.txt', '2\n');
      const two = await engine.checkpoint(input(['a.txt'], { runId: 'A' }));
      await engine.restore(one.sha);
      expect(await engine.head()).toEqual({ sha: one.sha, branch: null });
      x.write('a.txt', '3\n');
      const three = await engine.checkpoint(input(['a.txt'], { runId: 'B' }));
      expect(three.parent).toBe(one.sha);
      expect(x.git('rev-parse', 'run-A').trim()).toBe(two.sha);
      expect(x.git('rev-parse', 'run-B').trim()).toBe(three.sha);
      expect(await engine.head()).toEqual({ sha: three.sha, branch: 'run-B' });
      await assertRepoMatchesGit(engine);
    });
  });
});
