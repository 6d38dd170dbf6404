import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { writerCodon, writerConversation } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor, waitForEvent } from '../../test/harness-env.js';

// Error and skipped checkpoints: a codon that fails after writing, one skipped mid-run; a rollback
// to each restores exactly what that checkpoint holds.
describe('rollback to error and skipped checkpoints', () => {
  it('restores the files of a failed codon and of a skipped one', async () => {
    const world = await makeWorld({
      hank: {
        meta: { name: 'fail-skip', version: '1.0.0' },
        hank: [
          writerCodon('broken', { onFailure: 'ignore' }),
          writerCodon('slow', { onFailure: 'ignore' }),
          writerCodon('after', { onFailure: 'ignore' }),
        ],
      },
      script: {
        conversations: [
          writerConversation('broken', {
            fail: { kind: 'server-error' },
            times: 'always',
            content: [],
          }),
          writerConversation('slow', {
            fail: { kind: 'stall', phase: 'before-headers' },
            times: 'always',
            content: [],
          }),
          writerConversation('after', { content: [{ text: 'done' }] }),
        ],
      },
    });
    const { runtime, events } = runtimeFor(world, { autostart: false });
    await runtime.start();
    const agentRoot = join(runtime.executionDir, 'agentRoot');
    const exists = (path: string) => existsSync(join(agentRoot, path));

    await runtime.command({ type: 'codon.next' });
    await waitForEvent(
      events,
      (event) => event.type === 'codon.completed' && event.data.codonId === 'broken',
    );
    await runtime.command({ type: 'codon.next' });
    await waitForEvent(
      events,
      (event) => event.type === 'tool.result' && event.data.codonId === 'slow',
    );
    await runtime.command({ type: 'codon.skip' });
    await waitForEvent(
      events,
      (event) => event.type === 'codon.completed' && event.data.codonId === 'slow',
    );
    await waitForEvent(events, (event) => event.type === 'server.idle');

    const state = runtime.getState();
    const records = state.runs[0]?.codons ?? [];
    expect(records.map((record) => `${record.codonId}:${record.status}`)).toEqual([
      'broken:failed',
      'slow:skipped',
    ]);
    const errorSha = (records[0] as { errorCheckpoint?: string }).errorCheckpoint as string;
    const skipSha = (records[1] as { skipCheckpoint?: string }).skipCheckpoint as string;
    expect(records[1]).toMatchObject({ skippedDuring: 'running' });
    expect(shadowGit(runtime.executionDir, ['log', '-1', '--format=%s', skipSha]).trim()).toMatch(
      /^skipped:slow \[run:/,
    );

    // The skip checkpoint holds both files, the error checkpoint only the first.
    expect(exists('slow.txt')).toBe(true);
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'broken', checkpointType: 'error' },
    });
    expect(shadowGit(runtime.executionDir, ['ls-tree', '-r', '--name-only', errorSha]).trim()).toBe(
      'broken.txt',
    );
    expect(exists('slow.txt')).toBe(false);
    expect(readFileSync(join(agentRoot, 'broken.txt'), 'utf8')).toBe('broken done\n');

    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'slow', checkpointType: 'skipped' },
    });
    expect(
      shadowGit(runtime.executionDir, ['ls-tree', '-r', '--name-only', skipSha]).trim().split('\n'),
    ).toEqual(['broken.txt', 'slow.txt']);
    expect(readFileSync(join(agentRoot, 'slow.txt'), 'utf8')).toBe('slow done\n');
    expect(shadowGit(runtime.executionDir, ['fsck', '--full'])).toBe('');
    await runtime.close();
    await world.close();
  });
});
