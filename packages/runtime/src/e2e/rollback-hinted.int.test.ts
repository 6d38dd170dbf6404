import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { writerCodon, writerConversation } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor, waitForEvent } from '../../test/harness-env.js';

// A rollback in the process that took the last checkpoint tells the checkpoint engine which
// paths changed (issue 39): the checkpoint hint plus one more scan, from file events on a big
// tree. The attack: a tracked file rewritten behind the runtime's back after its last scan, with
// its size kept, which only that last scan can report. Watched and walking scans alike.
describe('a rollback restores from the checkpoint hint', () => {
  it.each([
    ['file events', { minFiles: 0 }],
    ['walking scans', { enabled: false }],
  ])(
    'and still puts back what changed behind the runtime (%s)',
    async (_, fileWatch) => {
      const world = await makeWorld({
        hank: {
          meta: { name: 'hinted', version: '1.0.0' },
          hank: [writerCodon('first'), writerCodon('second')],
        },
        script: { conversations: [writerConversation('first'), writerConversation('second')] },
      });
      const { runtime, events } = runtimeFor(world, { autostart: false, fileWatch });
      try {
        await runtime.start();
        const { executionDir } = runtime;
        const agentFile = (path: string) => join(executionDir, 'agentRoot', path);
        for (const id of ['first', 'second']) {
          await runtime.command({ type: 'codon.next' });
          await waitForEvent(
            events,
            (event) => event.type === 'codon.completed' && event.data.codonId === id,
          );
        }
        await waitForEvent(events, (event) => event.type === 'server.idle');
        const sha = shadowGit(executionDir, [
          'log',
          '--all',
          '--format=%H',
          '--grep=^completed:first ',
        ]).trim();
        // Same size as the checkpoint's content: nothing but a scan tells it changed.
        writeFileSync(agentFile('first.txt'), 'FIRST DONE\n');
        writeFileSync(agentFile('late.txt'), 'made after every checkpoint');

        await runtime.command({
          type: 'rollback.toCodon',
          data: { codonId: 'first', checkpointType: 'completed' },
        });
        expect(readFileSync(agentFile('first.txt'), 'utf8')).toBe(
          shadowGit(executionDir, ['show', `${sha}:first.txt`]),
        );
        expect(readFileSync(agentFile('first.txt'), 'utf8')).toBe('first done\n');
        expect(existsSync(agentFile('second.txt'))).toBe(false);
        expect(existsSync(agentFile('late.txt'))).toBe(false);
        const log = readFileSync(join(executionDir, '.hankweave/logs/server.log'), 'utf8');
        expect(log).toMatch(
          /Rollback restore of \w+: \d+ path\(s\) changed since the last checkpoint/,
        );
        expect(shadowGit(executionDir, ['fsck', '--full'])).toBe('');
      } finally {
        await runtime.close();
        await world.close();
      }
    },
    120_000,
  );
});
