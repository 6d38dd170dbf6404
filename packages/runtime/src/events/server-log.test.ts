import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { createServerLog } from './server-log.js';

describe('createServerLog()', () => {
  it('writes seed 001 lines and forwards each one', async () => {
    const dir = await makeTempDir('hw-server-log-');
    const path = join(dir.path, 'logs', 'server.log');
    const forwarded: string[] = [];
    const log = createServerLog(
      path,
      { info: (message) => forwarded.push(message) },
      () => new Date('2026-01-01T00:00:00.000Z'),
    );
    log.info('one\ntwo');
    expect(await readFile(path, 'utf8')).toBe('2026-01-01T00:00:00.000Z [INFO] one\n    two\n');
    expect(forwarded).toEqual(['one\ntwo']);
    await dir.cleanup();
  });

  it.runIf(process.platform === 'linux')(
    'says once that the file cannot be written on a full disk (/dev/full), and keeps forwarding',
    () => {
      const warnings: string[] = [];
      const errors: string[] = [];
      const log = createServerLog('/dev/full', {
        warn: (message) => warnings.push(message),
        error: (message) => errors.push(message),
      });
      for (let index = 0; index < 5; index++) log.error(`journal append failed ${index}`);
      expect(errors).toHaveLength(5);
      expect(warnings).toEqual([
        'Cannot write the server log /dev/full (ENOSPC); its lines are missing from that file from now on',
      ]);
    },
  );
});
