import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { type Fs, nodeFs } from '@hankweave/durable-io';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { childBundle } from '../test/build-child.js';
import { cleanupExecutions, type Execution, input, makeExecution } from '../test/helpers.js';
import { assertRepoMatchesGit } from './testing.js';

// restore() rewrites a tracked file in place when it is a lone regular file (see
// internal/rewrite-in-place.ts): far cheaper than a new inode on a disk that discards freed
// blocks. Each case here attacks what that must never do: write through a hard link, a symbolic
// link, a FIFO, a running program or a bind mount, whether there at planning or planted just
// before the open.

const restoreChild = childBundle('restore-child');
beforeAll(() => restoreChild.build(), 60_000);
afterAll(() => restoreChild.remove());

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  cleanupExecutions();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const read = (x: Execution, path: string) => readFileSync(join(x.root, path), 'utf8');
const inode = (path: string) => lstatSync(path).ino;

/** An execution whose checkpoint v1 has `code.ts` = "v1", then changed on disk since. */
async function changedSinceV1(fs?: Fs) {
  const x = makeExecution();
  const outside = makeExecution();
  outside.write('victim.txt', 'precious\n');
  const engine = await x.open(fs ? { fs } : {});
  x.write('code.ts', 'v1\n');
  const v1 = await engine.checkpoint(input(['code.ts']));
  x.write('code.ts', 'v2, not checkpointed\n');
  return { x, outside, engine, v1, victim: join(outside.root, 'victim.txt') };
}

/**
 * A file system whose `open` of an existing `code.ts` for writing (the in-place rewrite, never a
 * create) first runs `plant`: what a process racing the restore would do between its planning
 * and its open.
 */
function racingOpen(plant: (path: string) => void | Promise<void>): Fs {
  return {
    ...nodeFs,
    open: (async (path: string, flags?: string | number, mode?: number) => {
      if (
        String(path).endsWith('/code.ts') &&
        typeof flags === 'number' &&
        !(flags & constants.O_CREAT)
      )
        await plant(String(path));
      return nodeFs.open(path, flags, mode);
    }) as Fs['open'],
  };
}

describe('restore() in place', () => {
  it('keeps the inode of a lone file and leaves exactly the target bytes, growing or shrinking', async () => {
    const x = makeExecution();
    const engine = await x.open();
    x.write('grows.txt', 'short\n');
    x.write('shrinks.txt', 'a much longer line than the other one\n'.repeat(300));
    const v1 = await engine.checkpoint(input(['grows.txt', 'shrinks.txt']));
    x.write('grows.txt', 'a much longer line than the other one\n'.repeat(300));
    x.write('shrinks.txt', 'short\n');
    await engine.checkpoint(input(['grows.txt', 'shrinks.txt']));
    // Open descriptors see the file's inode: after a rewrite in place they read the new bytes
    // (after a replacement they would read the old ones, and the inode number could not be reused).
    const open = [
      openSync(join(x.root, 'grows.txt'), 'r'),
      openSync(join(x.root, 'shrinks.txt'), 'r'),
    ];
    const before = [inode(join(x.root, 'grows.txt')), inode(join(x.root, 'shrinks.txt'))];

    const result = await engine.restore(v1.sha);

    expect(result.written).toEqual(['grows.txt', 'shrinks.txt']);
    expect([inode(join(x.root, 'grows.txt')), inode(join(x.root, 'shrinks.txt'))]).toEqual(before);
    expect(open.map((fd) => readFileSync(fd, 'utf8').length)).toEqual([6, 38 * 300]);
    for (const fd of open) closeSync(fd);
    expect(read(x, 'grows.txt')).toBe('short\n');
    expect(read(x, 'shrinks.txt')).toBe('a much longer line than the other one\n'.repeat(300));
    expect(x.git('status', '--porcelain')).toBe('');
    await assertRepoMatchesGit(engine);
  });

  it('replaces a file hard-linked to one outside, which keeps its content', async () => {
    const { x, engine, v1, victim } = await changedSinceV1();
    unlinkSync(join(x.root, 'code.ts'));
    linkSync(victim, join(x.root, 'code.ts'));

    await engine.restore(v1.sha);

    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(read(x, 'code.ts')).toBe('v1\n');
    expect(lstatSync(victim).nlink).toBe(1);
  });

  it('replaces a file whose mode changes, giving it the mode of the target', async () => {
    const x = makeExecution();
    const engine = await x.open();
    x.write('run.sh', 'echo v1\n', 0o755);
    const v1 = await engine.checkpoint(input(['run.sh']));
    x.write('run.sh', 'echo v2\n', 0o644);

    await engine.restore(v1.sha);

    expect(lstatSync(join(x.root, 'run.sh')).mode & 0o100).not.toBe(0);
    expect(read(x, 'run.sh')).toBe('echo v1\n');
    expect(x.git('status', '--porcelain')).toBe('');
  });

  it('replaces a program that is running (the kernel refuses the write) and leaves it running', async () => {
    const x = makeExecution();
    const program = readFileSync('/bin/sleep');
    const engine = await x.open();
    x.write('tool', program, 0o755);
    const v1 = await engine.checkpoint(input(['tool']));
    x.write('tool', Buffer.concat([program, Buffer.from('appended\n')]), 0o755);
    await engine.checkpoint(input(['tool']));
    const running = spawn(join(x.root, 'tool'), ['60'], { stdio: 'ignore' });
    children.push(running);
    await new Promise((resolve, reject) => running.once('spawn', resolve).once('error', reject));

    const result = await engine.restore(v1.sha);

    expect(result.written).toEqual(['tool']);
    expect(readFileSync(join(x.root, 'tool')).equals(program)).toBe(true);
    expect(running.exitCode).toBeNull();
    expect(running.signalCode).toBeNull();
  });

  it('never writes into another name planted as a hard link to the file before the open', async () => {
    let alias = '';
    const fs = racingOpen((path) => {
      linkSync(path, alias);
    });
    const { x, outside, engine, v1 } = await changedSinceV1(fs);
    alias = join(outside.root, 'alias.txt');

    await engine.restore(v1.sha);

    expect(readFileSync(alias, 'utf8')).toBe('v2, not checkpointed\n');
    expect(read(x, 'code.ts')).toBe('v1\n');
    expect(inode(join(x.root, 'code.ts'))).not.toBe(inode(alias));
  });

  it('never follows a symbolic link planted before the open', async () => {
    let victim = '';
    const fs = racingOpen((path) => {
      unlinkSync(path);
      symlinkSync(victim, path);
    });
    const planted = await changedSinceV1(fs);
    victim = planted.victim;

    await planted.engine.restore(planted.v1.sha);

    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(planted.x.root, 'code.ts')).isFile()).toBe(true);
    expect(read(planted.x, 'code.ts')).toBe('v1\n');
  });

  it('neither blocks on nor writes into a FIFO planted before the open, read or not', async () => {
    let out = '';
    let reader: ChildProcess | undefined;
    const fs = racingOpen(async (path) => {
      unlinkSync(path);
      expect(spawnSync('mkfifo', [path]).status).toBe(0);
      if (!out) return; // no reader: the open must not wait for one
      reader = spawn('sh', ['-c', 'cat "$0" > "$1"', path, out], { stdio: 'ignore' });
      children.push(reader);
      await sleep(300); // the reader is now blocked in its open of the FIFO
    });

    const alone = await changedSinceV1(fs);
    await alone.engine.restore(alone.v1.sha);
    expect(read(alone.x, 'code.ts')).toBe('v1\n');

    const withReader = await changedSinceV1(fs);
    out = join(withReader.outside.root, 'received.txt');
    writeFileSync(out, '');
    await withReader.engine.restore(withReader.v1.sha);
    expect(read(withReader.x, 'code.ts')).toBe('v1\n');
    const exited = reader as ChildProcess;
    if (exited.exitCode === null) await new Promise((resolve) => exited.once('exit', resolve));
    expect(readFileSync(out, 'utf8')).toBe('');
  });

  // A bind mount looks like a lone regular file to lstat and fstat: only the mount table tells.
  it.runIf(process.platform === 'linux')(
    'never writes into a file bind-mounted over a tracked path',
    async () => {
      const { x, engine, v1, victim } = await changedSinceV1();
      await engine.close();

      const mount = ['--dev-bind', '/', '/', '--bind', victim, join(x.root, 'code.ts')];
      const bwrap = spawnSync(
        'bwrap',
        [...mount, process.execPath, restoreChild.script, x.exec, v1.sha],
        { encoding: 'utf8' },
      );

      expect(bwrap.error, 'bubblewrap is needed (apt-get install bubblewrap)').toBeUndefined();
      expect(bwrap.stderr).toBe('');
      expect(JSON.parse(bwrap.stdout)).toMatchObject({
        ok: false,
        code: 'CHECKPOINT_STORAGE_FAILED',
        message: expect.stringMatching(/cannot restore code.ts/),
      });
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    },
  );
});
