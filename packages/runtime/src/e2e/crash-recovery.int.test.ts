import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnChild } from '@hankweave/durable-io/testing';
import { readState } from '@hankweave/state';
import { afterAll, describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { agentEnv, makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

const CHILD = fileURLToPath(new URL('../../test/crash-child.mjs', import.meta.url));

/** Starts the child runtime; `running` resolves when its second codon runs. */
function startChild(world: TestWorld, executionDir: string) {
  const child = spawnChild(CHILD, [world.hankDir, executionDir, join(world.root, 'home')]);
  return { child, running: child.waitForLine('RUNNING') };
}

describe('SIGKILL of the runtime mid-codon, then a restart', () => {
  let world: TestWorld;
  afterAll(() => world?.close());

  it('marks the run crashed, rolls back to the last success and finishes the hank', async () => {
    world = await makeWorld();
    const executionDir = join(world.root, 'execution');
    const { child, running } = startChild(world, executionDir);
    await running;
    const before = await readState(join(executionDir, '.hankweave'));
    const agentPid = (
      before.state.runs[0]?.codons.find((codon) => codon.codonId === 'summarize') as
        | { claudePid?: number }
        | undefined
    )?.claudePid;
    await child.kill();
    // The agent runs in its own process group; a real crash would orphan it too.
    if (agentPid) {
      try {
        process.kill(-agentPid, 'SIGKILL');
      } catch {}
    }

    const restarted = runtimeFor(world, { executionDir, env: agentEnv(world.root) });
    await restarted.runtime.start();
    const exit = await restarted.runtime.finished;
    expect(exit.exitCode).toBe(0);

    const { state } = await readState(join(executionDir, '.hankweave'));
    const crashed = state.runs.at(-1);
    expect(crashed?.status).toBe('crashed');
    expect(crashed?.codons.map((codon) => codon.status)).toEqual(['completed', 'failed']);
    expect(crashed?.codons[1]).toMatchObject({
      codonId: 'summarize',
      failedDuring: 'running',
      exitCode: -1,
      failureReason: { type: 'unknown', retriable: false, message: 'Server crashed' },
    });
    const recovery = state.runs[0];
    expect(recovery).toMatchObject({
      status: 'completed',
      startingConditions: {
        type: 'continuation',
        reason: 'rollback',
        source: { afterCodon: 'observe' },
      },
    });
    expect(recovery?.codons.map((codon) => `${codon.codonId}:${codon.status}`)).toEqual([
      'summarize:completed',
      'polish-pass#0:completed',
      'polish-pass#1:completed',
    ]);
    expect(
      restarted.events.some(
        (event) => event.type === 'rollback.completed' && event.data.codonId === 'observe',
      ),
    ).toBe(true);
    expect(shadowGit(executionDir, ['fsck', '--full'])).toBe('');
    expect(
      shadowGit(executionDir, ['branch', '--format=%(refname:short)'])
        .trim()
        .split('\n')
        .filter((name) => name.startsWith('run-')),
    ).toHaveLength(2);
  });
});
