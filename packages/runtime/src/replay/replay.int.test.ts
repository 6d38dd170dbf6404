import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { HankweaveEvent, HankweaveState } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { writerCodon, writerConversation } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor } from '../../test/harness-env.js';
import { executionLayout } from '../index.js';

// Record a hank with the real agent on the scripted model, then replay its execution: no agent,
// no model, the real parser, costs, state, journal and checkpoints.
const hank = {
  meta: { name: 'replayed', version: '1.0.0' },
  hank: [
    writerCodon('first'),
    writerCodon('middle', { onFailure: 'retry', retryConfig: { maxAttempts: 3, delayMs: 20 } }),
    writerCodon('last'),
  ],
};
const script = {
  conversations: [
    writerConversation('first'),
    {
      ...writerConversation('middle'),
      turns: [
        { ...writerConversation('middle').turns[0], fail: { kind: 'overloaded' }, times: 1 },
        writerConversation('middle').turns[1],
      ],
    },
    writerConversation('last'),
  ],
};

/** Per codon record: what a replay must reproduce exactly. */
function outcomes(state: HankweaveState) {
  return state.runs.flatMap((run) =>
    run.codons.map((codon) => {
      // The fields depend on the status; read them all from the record as written.
      const record = codon as typeof codon & {
        finalCost?: number;
        partialCost?: number;
        failureReason?: { type: string };
      };
      return {
        codonId: record.codonId,
        status: record.status,
        finalCost: record.finalCost,
        partialCost: record.partialCost,
        failureType: record.failureReason?.type,
        exitCode: record.exitCode,
      };
    }),
  );
}
const completions = (events: HankweaveEvent[]) =>
  events.flatMap((event) =>
    event.type === 'codon.completed'
      ? [{ codonId: event.data.codonId, success: event.data.success, cost: event.data.cost }]
      : [],
  );

/** Every file under `dir` with its content: the recorded execution must not change. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      const stats = statSync(child, { throwIfNoEntry: false });
      if (stats?.isDirectory()) walk(child);
      else if (stats?.isFile()) files[relative(dir, child)] = readFileSync(child, 'base64');
    }
  };
  walk(dir);
  return files;
}

function agentLogs(executionDir: string): Record<string, string> {
  const runsDir = executionLayout(executionDir).runsDir;
  const logs: Record<string, string> = {};
  for (const run of readdirSync(runsDir))
    for (const name of readdirSync(join(runsDir, run)))
      logs[name] = readFileSync(join(runsDir, run, name), 'utf8');
  return logs;
}

describe('replay of a recorded execution (real agent recorded, replayed without it)', () => {
  it('reproduces every codon outcome and cost, and the agent logs byte for byte', async () => {
    const world = await makeWorld({ hank, script });
    try {
      const recorded = runtimeFor(world);
      await recorded.runtime.start();
      const recordedExit = await recorded.runtime.finished;
      expect(recordedExit.exitCode).toBe(0);
      const recordedDir = recorded.runtime.executionDir;
      const expected = outcomes(recorded.runtime.getState());
      // The recording holds a retry: the replay must feed the second session to the retry.
      expect(expected.map((record) => `${record.codonId}:${record.status}`)).toEqual([
        'first:completed',
        'middle:failed',
        'middle:completed',
        'last:completed',
      ]);
      expect(expected[1]?.failureType).toBe('api-error');
      expect(
        expected.filter((r) => r.status === 'completed').every((r) => (r.finalCost ?? 0) > 0),
      ).toBe(true);
      const before = snapshot(recordedDir);
      const requests = world.model.requests.length;

      const replay = runtimeFor(world, {
        replay: { executionDir: recordedDir, maxDelayMs: 0, minDelayMs: 0 },
        // No model: a replay that tried to reach one would fail.
        anthropicBaseUrl: 'http://127.0.0.1:9',
      });
      await replay.runtime.start();
      const exit = await replay.runtime.finished;
      expect(exit).toEqual(recordedExit);
      expect(replay.runtime.executionDir).not.toBe(recordedDir);
      expect(outcomes(replay.runtime.getState())).toEqual(expected);
      expect(completions(replay.events)).toEqual(completions(recorded.events));
      expect(world.model.requests.length).toBe(requests);
      expect(agentLogs(replay.runtime.executionDir)).toEqual(agentLogs(recordedDir));
      expect(snapshot(recordedDir)).toEqual(before);
      // A log records tool results, not their effects: the files the agent wrote are not there.
      const { agentRoot } = executionLayout(replay.runtime.executionDir);
      expect(existsSync(join(recordedDir, 'agentRoot', 'first.txt'))).toBe(true);
      expect(existsSync(join(agentRoot, 'first.txt'))).toBe(false);
    } finally {
      await world.close();
    }
  }, 120_000);
});
