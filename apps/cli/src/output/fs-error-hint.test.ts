import { mkdirSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointError } from '@hankweave/checkpoints';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFsError } from './fs-error-hint.js';

/** The error `action` throws: a real system error, not a made-up one. */
function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

/** An errno error as Node makes it, for codes a test cannot cause as root (EACCES, EROFS). */
const systemError = (code: string, path: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: failed, mkdir '${path}'`), { code, path, syscall: 'mkdir' });

describe('describeFsError()', () => {
  afterEach(cleanupTempDirs);

  it('names the missing path for ENOENT and says to pass one that exists', async () => {
    const dir = (await makeTempDir('hw-fs-hint-')).path;
    const missing = join(dir, 'nope');
    const described = describeFsError(thrownBy(() => statSync(missing)));
    expect(described).toMatchObject({ errno: 'ENOENT', path: missing });
    expect(described?.message).toContain(`${missing} does not exist`);
    expect(described?.hint).toMatch(/pass one that exists/);
  });

  it('names the regular file in the way for ENOTDIR', async () => {
    const dir = (await makeTempDir('hw-fs-hint-')).path;
    const file = join(dir, 'file');
    writeFileSync(file, '');
    const under = join(dir, 'file', 'a', 'b');
    const described = describeFsError(thrownBy(() => mkdirSync(under, { recursive: true })));
    expect(described?.errno).toBe('ENOTDIR');
    expect(described?.message).toContain(`${file} is a file, not a directory`);
    expect(described?.hint).toMatch(/move the file out of the way/);
  });

  it('says a directory was given where a file was expected for EISDIR', async () => {
    const dir = (await makeTempDir('hw-fs-hint-')).path;
    const described = describeFsError(thrownBy(() => openSync(dir, 'w')));
    expect(described).toMatchObject({ errno: 'EISDIR', path: dir });
    expect(described?.hint).toMatch(/path of a file/);
  });

  it.runIf(process.platform === 'linux')(
    'says the disk is full for ENOSPC (/dev/full) and how to move the executions',
    () => {
      const fd = openSync('/dev/full', 'w');
      const described = describeFsError(thrownBy(() => writeSync(fd, 'x')));
      expect(described?.errno).toBe('ENOSPC');
      expect(described?.message).toMatch(/is full \(ENOSPC\)/);
      expect(described?.hint).toMatch(/Free space/);
      expect(described?.hint).toContain('HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR');
    },
  );

  it('names the directory that is not writable for EACCES, EPERM and EROFS', () => {
    for (const code of ['EACCES', 'EPERM', 'EROFS']) {
      const described = describeFsError(systemError(code, '/srv/runs/x'));
      expect(described?.message).toContain('/srv/runs/x');
      expect(described?.message).toContain(code);
      expect(described?.hint).toContain('--execution <dir>');
      expect(described?.hint).toContain('HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR');
    }
    expect(describeFsError(systemError('EACCES', '/srv/runs/x'))?.hint).toContain(
      'permissions of /srv/runs',
    );
  });

  it('covers a quota and too many open files', () => {
    expect(describeFsError(systemError('EDQUOT', '/q/x'))?.message).toMatch(/full \(EDQUOT/);
    expect(describeFsError(systemError('EMFILE', '/q/x'))?.hint).toContain('ulimit -n');
  });

  it('finds the errno behind a hankweave error, in its cause or its details', () => {
    const cause = systemError('ENOSPC', '/x/.hankweave/checkpoints');
    const wrapped = new CheckpointError('CHECKPOINT_STORAGE_FAILED', 'checkpoint() failed', {
      cause,
      details: { errno: 'ENOSPC' },
    });
    expect(describeFsError(wrapped)).toMatchObject({
      errno: 'ENOSPC',
      path: '/x/.hankweave/checkpoints',
    });
    const recordedOnly = new CheckpointError('CHECKPOINT_STORAGE_FAILED', 'failed', {
      details: { errno: 'ENOSPC', path: '/y' },
    });
    expect(describeFsError(recordedOnly)).toMatchObject({ errno: 'ENOSPC', path: '/y' });
  });

  it('leaves other errors alone, hankweave codes included', () => {
    expect(describeFsError(new Error('boom'))).toBeUndefined();
    expect(
      describeFsError(new CheckpointError('CHECKPOINT_NOT_FOUND', 'no such checkpoint')),
    ).toBeUndefined();
    expect(describeFsError(systemError('ECONNRESET', '/x'))).toBeUndefined();
  });
});
