import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, input, makeExecution } from '../test/helpers.js';
import type { CheckpointEngine } from './index.js';

afterEach(cleanupExecutions);
afterEach(cleanupTempDirs);

/** Writes the `from` side into a scratch dir, applies the patches with `git apply`, returns it. */
async function applyPatches(
  engine: CheckpointEngine,
  from: string,
  patch: string,
): Promise<string> {
  const { path: dir } = await makeTempDir('hankweave-apply-');
  for (const file of await engine.files(from)) {
    if (file.mode === '120000') continue;
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), await engine.readFile(from, file.path));
  }
  writeFileSync(join(dir, '.patch'), patch);
  const result = spawnSync('git', ['apply', '--whitespace=nowarn', '.patch'], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: dir },
  });
  if (result.status !== 0) throw new Error(`git apply failed: ${result.stderr}\n${patch}`);
  return dir;
}

describe('CheckpointEngine', () => {
  describe('diff()', () => {
    it('gives git diff --name-status and patches that git apply turns into the target', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const long = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
      x.write('long.txt', `${long}\n`);
      x.write('edit.txt', 'a\nb\nc\n');
      x.write('gone.txt', 'bye\n');
      x.write('mode.sh', 'echo\n');
      x.write('noeol.txt', 'no newline');
      x.write('ünï code.txt', 'x\n');
      const files1 = ['long.txt', 'edit.txt', 'gone.txt', 'mode.sh', 'noeol.txt', 'ünï code.txt'];
      const one = await engine.checkpoint(input(files1));
      x.write(
        'long.txt',
        `${long.replace('line 5\n', 'line five\n').replace('line 50', 'line fifty')}\nappended\n`,
      );
      x.write('edit.txt', 'a\nB\nc\nd');
      x.remove('gone.txt');
      x.write('mode.sh', 'echo\n', 0o755);
      x.write('noeol.txt', 'no newline, still');
      x.write('ünï code.txt', 'y\n');
      x.write('added/new.txt', 'fresh\n');
      const files2 = [
        'long.txt',
        'edit.txt',
        'mode.sh',
        'noeol.txt',
        'ünï code.txt',
        'added/new.txt',
      ];
      const two = await engine.checkpoint(input(files2));

      const entries = await engine.diff(one.sha, two.sha);
      const nameStatus = entries.map((entry) => `${entry.status}\t${entry.path}`).join('\n');
      const gitNameStatus = x
        .git(
          '-c',
          'core.quotePath=false',
          'diff',
          '--name-status',
          '--no-renames',
          one.sha,
          two.sha,
        )
        .trim();
      expect(nameStatus).toBe(gitNameStatus);
      expect(entries.find((entry) => entry.path === 'mode.sh')).toMatchObject({
        status: 'M',
        oldMode: '100644',
        newMode: '100755',
      });
      expect(entries.find((entry) => entry.path === 'edit.txt')?.patch).toBe(
        x.git('diff', one.sha, two.sha, '--', 'edit.txt'),
      );

      const dir = await applyPatches(engine, one.sha, entries.map((entry) => entry.patch).join(''));
      for (const path of files2) {
        expect(readFileSync(join(dir, path)).equals(await engine.readFile(two.sha, path))).toBe(
          true,
        );
      }
    });

    it('filters by path, flags binary files, shows type changes and can skip patches', async () => {
      const x = makeExecution();
      const engine = await x.open();
      x.write('src/a.ts', 'a\n');
      x.write('src/b.ts', 'b\n');
      x.write('img.bin', Buffer.from([0, 1, 2, 3]));
      x.write('t.txt', 'target\n');
      x.write('swap', 'file first\n');
      const one = await engine.checkpoint(
        input(['src/a.ts', 'src/b.ts', 'img.bin', 't.txt', 'swap']),
      );
      x.write('src/a.ts', 'A\n');
      x.write('src/b.ts', 'B\n');
      x.write('img.bin', Buffer.from([0, 9, 9, 9]));
      x.link('swap', 't.txt');
      const two = await engine.checkpoint(
        input(['src/a.ts', 'src/b.ts', 'img.bin', 't.txt', 'swap']),
      );
      expect(
        (await engine.diff(one.sha, two.sha, { paths: ['src/'] })).map((entry) => entry.path),
      ).toEqual(['src/a.ts', 'src/b.ts']);
      const all = await engine.diff(one.sha, two.sha);
      const binary = all.find((entry) => entry.path === 'img.bin');
      expect(binary?.binary).toBe(true);
      expect(binary?.patch).toContain('Binary files a/img.bin and b/img.bin differ');
      expect(all.find((entry) => entry.path === 'swap')).toMatchObject({
        status: 'T',
        oldMode: '100644',
        newMode: '120000',
      });
      expect(all.find((entry) => entry.path === 'swap')?.patch).toBe(
        x.git('diff', one.sha, two.sha, '--', 'swap'),
      );
      const bare = await engine.diff(one.sha, two.sha, { patch: false });
      expect(bare.every((entry) => entry.patch === '')).toBe(true);
      expect(await engine.diff(two.sha, two.sha)).toEqual([]);
    });
  });
});
