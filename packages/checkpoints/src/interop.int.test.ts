import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createFaultyFs } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, input, makeExecution } from '../test/helpers.js';
import { assertRepoMatchesGit } from './testing.js';

afterEach(cleanupExecutions);

describe('CheckpointEngine', () => {
  describe('with a repository native git has repacked', () => {
    it('reads deltified packs and packed refs, then keeps checkpointing and restoring', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const body = Array.from({ length: 200 }, (_, i) => `shared line ${i}`).join('\n');
      const shas: string[] = [];
      for (let round = 0; round < 4; round++) {
        x.write('doc.txt', `${body}\nround ${round}\n`);
        x.write(`r${round}.txt`, `${round}\n`);
        shas.push(
          (
            await engine.checkpoint(
              input(['doc.txt', ...Array.from({ length: round + 1 }, (_, i) => `r${i}.txt`)], {
                runId: `R${round % 2}`,
              }),
            )
          ).sha,
        );
      }
      await engine.close();
      // gc packs refs and deltifies the similar doc.txt versions.
      x.git('gc', '--aggressive', '--prune=now', '--quiet');
      expect(readdirSync(join(engine.gitDir, 'refs', 'heads'))).toEqual([]);
      expect(
        x.git(
          'verify-pack',
          '-v',
          ...readdirSync(join(engine.gitDir, 'objects', 'pack'))
            .filter((n) => n.endsWith('.idx'))
            .map((n) => join(engine.gitDir, 'objects', 'pack', n)),
        ),
      ).toMatch(/chain length = 1/);

      const reopened = await x.open();
      expect((await reopened.list()).map((info) => info.sha)).toEqual([...shas].reverse());
      expect((await reopened.readFile(shas[0] as string, 'doc.txt')).toString()).toBe(
        `${body}\nround 0\n`,
      );
      await reopened.restore(shas[1] as string);
      x.write('doc.txt', 'after gc\n');
      const next = await reopened.checkpoint(input(['doc.txt'], { runId: 'R1' }));
      expect(next.parent).toBe(shas[3]);
      expect(
        (await reopened.diff(shas[0] as string, shas[2] as string)).map((entry) => entry.path),
      ).toEqual(['doc.txt', 'r1.txt', 'r2.txt']);
      await assertRepoMatchesGit(reopened);
    });
  });

  describe('with an index native git rewrote', () => {
    it('keeps using it as the stat cache', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const files = Array.from({ length: 12 }, (_, i) => `s/${i}.txt`);
      for (const file of files) x.write(file, `${file}\n`);
      await new Promise((done) => setTimeout(done, 30));
      await engine.checkpoint(input(files));
      await engine.close();
      x.write('s/3.txt', 'edited behind our back\n');
      // `git status` refreshes stat data and rewrites the index in its own way.
      expect(x.git('status', '--porcelain')).toBe(' M s/3.txt\n');
      const reopened = await x.open();
      const next = await reopened.checkpoint(input(files));
      expect(next.hashed).toBe(1);
      expect(x.git('status', '--porcelain')).toBe('');
      await assertRepoMatchesGit(reopened);
    });
  });

  describe('with a failing disk', () => {
    it('reports CHECKPOINT_STORAGE_FAILED and leaves the branch at the last complete checkpoint', async () => {
      const x = makeExecution();
      const good = await x.open();
      x.write('a.txt', 'one\n');
      const first = await good.checkpoint(input(['a.txt']));
      await good.close();
      const faulty = createFaultyFs({
        failAt: 'open',
        pathIncludes: 'refs/heads/run-run1.lock',
        code: 'ENOSPC',
      });
      const broken = await x.open({ fs: faulty });
      x.write('a.txt', 'two\n');
      const error = await broken.checkpoint(input(['a.txt'])).catch((caught: unknown) => caught);
      expect(faulty.faulted).toBe(true);
      expect(error).toMatchObject({
        code: 'CHECKPOINT_STORAGE_FAILED',
        details: { errno: 'ENOSPC' },
      });
      expect((error as Error).message).toContain('ENOSPC');
      expect(x.git('rev-parse', 'run-run1').trim()).toBe(first.sha);
      await broken.close();
      const healed = await x.open();
      const second = await healed.checkpoint(input(['a.txt']));
      expect(second.parent).toBe(first.sha);
      await assertRepoMatchesGit(healed);
    });

    it('works through an injected fs end to end', async () => {
      const x = makeExecution();
      const faulty = createFaultyFs({ failAt: 'chmod', after: 999_999, times: 1 });
      const engine = await x.open({ fs: faulty, packThreshold: 5 });
      x.write('a.txt', 'a\n');
      x.write('dir/b.txt', 'b\n', 0o755);
      x.link('l', 'a.txt');
      const files = Array.from({ length: 8 }, (_, i) => `many/m${i}.txt`);
      for (const file of files) x.write(file, `${file}\n`);
      const one = await engine.checkpoint(input(['a.txt', 'dir/b.txt', 'l', ...files]));
      expect(one.packed).toBe(true);
      x.write('a.txt', 'changed\n');
      const two = await engine.checkpoint(input(['a.txt', 'dir/b.txt', 'l']));
      await engine.restore(one.sha);
      expect((await engine.readFile(one.sha, 'many/m1.txt')).toString()).toBe('many/m1.txt\n');
      expect((await engine.diff(one.sha, two.sha, { patch: false })).length).toBe(9);
      await assertRepoMatchesGit(engine);
    });
  });

  describe('close()', () => {
    it('makes later calls fail with CHECKPOINT_CLOSED', async () => {
      const x = makeExecution();
      const engine = await x.open();
      await engine.close();
      await expect(engine.list()).rejects.toMatchObject({ code: 'CHECKPOINT_CLOSED' });
      await engine.close();
    });
  });

  describe('pack compaction', () => {
    it('merges the small per-checkpoint packs and keeps every checkpoint readable', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const shas: string[] = [];
      for (let i = 0; i < 40; i++) {
        x.write(`f${i % 5}.txt`, `version ${i}\n`);
        shas.push(
          (
            await engine.checkpoint(
              input(
                ['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt'].slice(0, Math.min(5, i + 1)),
              ),
            )
          ).sha,
        );
      }
      const idx = readdirSync(join(engine.gitDir, 'objects', 'pack')).filter((name) =>
        name.endsWith('.idx'),
      );
      expect(idx.length).toBeLessThanOrEqual(33);
      for (const [i, sha] of shas.entries()) {
        expect((await engine.readFile(sha, `f${i % 5}.txt`)).toString()).toBe(`version ${i}\n`);
      }
      await engine.restore(shas[3] as string);
      await assertRepoMatchesGit(engine);
    });
  });
});
