import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { rigOperationSchema } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { runRigSetup } from '../codon/rig-setup.js';
import { DataGuard } from './data-guard.js';
import { describeDataChange } from './describe-data-change.js';

afterEach(cleanupTempDirs);

const ops = (list: unknown[]) => list.map((op) => rigOperationSchema.parse(op));

describe('runRigSetup() with the data guard', () => {
  it('stops at the command that wrote into the data, even one that allows failure', async () => {
    const { path: root } = await makeTempDir('rig-guard-');
    const data = join(root, 'data');
    const agentRoot = join(root, 'agentRoot');
    mkdirSync(data);
    mkdirSync(agentRoot);
    writeFileSync(join(data, 'precious.txt'), 'mine');
    symlinkSync(data, join(agentRoot, 'read_only_data_source'));
    const guard = DataGuard.open({
      dataLink: join(agentRoot, 'read_only_data_source'),
      linkType: 'symlink',
    });
    const seen: string[] = [];
    const result = await runRigSetup({
      operations: ops([
        { type: 'command', command: { run: 'touch ok.txt' } },
        {
          type: 'command',
          command: { run: 'echo x > read_only_data_source/rig.txt; exit 3' },
          allowFailure: true,
        },
        { type: 'command', command: { run: 'touch never.txt' } },
      ]),
      hankDir: root,
      agentRoot,
      env: process.env,
      checkAfterOperation: async (operation) => {
        seen.push(operation);
        const changes = guard?.check() ?? [];
        return changes.length > 0 ? describeDataChange({ changes, after: operation }) : undefined;
      },
    });
    expect(seen).toEqual([
      "rig operation 1 (command 'touch ok.txt')",
      "rig operation 2 (command 'echo x > read_only_data_source/rig.txt; exit 3')",
    ]);
    expect(result.fatal).toMatchObject({ index: 1, ok: false, ignored: false });
    expect(result.fatal?.message).toContain('read_only_data_source/rig.txt (created)');
    expect(existsSync(join(agentRoot, 'ok.txt'))).toBe(true);
    expect(existsSync(join(agentRoot, 'never.txt'))).toBe(false);
  });
});
