import { describe, expect, it } from 'vitest';
import { AgentLogWriter } from '../agent-log-writer.js';
import { classifyFileSystemFailure } from './file-system-failure.js';

describe('classifyFileSystemFailure()', () => {
  it('says a full disk with its errno and path, not retriable', () => {
    expect(
      classifyFileSystemFailure(
        'Cannot write the agent log /data/runs/r1/a#0-claude.log (ENOSPC: no space left on device, write)',
      ),
    ).toEqual({
      type: 'unknown',
      retriable: false,
      message: 'The disk is full (ENOSPC) writing /data/runs/r1/a#0-claude.log',
      errno: 'ENOSPC',
      path: '/data/runs/r1/a#0-claude.log',
    });
  });

  it('keeps a path with spaces whole and words an open failure as opening', () => {
    expect(
      classifyFileSystemFailure(
        "Cannot open the agent log /my runs/a.log (EACCES: permission denied, open '/my runs/a.log')",
      ),
    ).toMatchObject({
      retriable: false,
      message: 'Permission denied (EACCES) opening /my runs/a.log',
      path: '/my runs/a.log',
    });
  });

  it('lets a retry outlive too many open files', () => {
    expect(
      classifyFileSystemFailure('Cannot write the agent log /x.log (EMFILE: too many open files)'),
    ).toMatchObject({ retriable: true, errno: 'EMFILE' });
  });

  it('names an unlisted errno as a file-system failure', () => {
    expect(
      classifyFileSystemFailure('Cannot write the agent log /x.log (EBADF: bad file descriptor)')
        ?.message,
    ).toBe('The file system failed (EBADF) writing /x.log');
  });

  it('keeps a message without an errno as it is, still not an API error', () => {
    expect(classifyFileSystemFailure('Cannot write the agent log /x.log')).toEqual({
      type: 'unknown',
      retriable: false,
      message: 'Cannot write the agent log /x.log',
      path: '/x.log',
    });
  });

  it('leaves any other text to the API error rules', () => {
    expect(classifyFileSystemFailure('API Error: 529 Overloaded')).toBeUndefined();
    expect(classifyFileSystemFailure('ENOSPC somewhere else')).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')(
    'classifies what the log writer throws on a real full disk (/dev/full)',
    async () => {
      const writer = await AgentLogWriter.open('/dev/full');
      const error = await writer.write('x').then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
      await writer.close();
      expect(error).toMatchObject({
        code: 'HARNESS_LOG_WRITE_FAILED',
        details: { path: '/dev/full', errno: 'ENOSPC' },
      });
      expect(classifyFileSystemFailure(error?.message ?? '')).toMatchObject({
        retriable: false,
        errno: 'ENOSPC',
        message: 'The disk is full (ENOSPC) writing /dev/full',
      });
    },
  );
});
