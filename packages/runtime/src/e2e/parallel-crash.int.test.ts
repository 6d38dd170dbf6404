import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnChild } from '@hankweave/durable-io/testing';
import { readState } from '@hankweave/state';
import { afterAll, describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { codon, writes } from '../../test/hank-builders.js';
import { agentEnv, asked, makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// A SIGKILL of the runtime in the middle of a parallel block (issue 36): one branch finished,
// another mid-codon. The restart resumes the block without running the finished branch or the
// finished codon of the other one again, and merges.

const CHILD = fileURLToPath(new URL('../../test/parallel-crash-child.mjs', import.meta.url));

describe('SIGKILL of the runtime mid-block, then a restart', () => {
  let world: TestWorld;
  afterAll(() => world?.close());

  it('resumes the block without re-running finished branches or codons, then merges', async () => {
    const script = {
      conversations: [
        writes('plan', 'plan.txt'),
        writes('quick', 'quick.txt'),
        writes('first', 'slow/first.txt'),
        writes('second', 'slow/second.txt'),
        writes('report', 'report.txt'),
      ],
    };
    world = await makeWorld({
      // The child reads the script from the hank's directory; this process serves it as is.
      files: { 'model-script.json': JSON.stringify(script) },
      hank: {
        meta: { name: 'parallel-crash', version: '1.0.0' },
        hank: [
          codon('plan'),
          {
            type: 'parallel',
            id: 'work',
            name: 'Work',
            branches: [
              { id: 'fast', items: [codon('quick')] },
              { id: 'slow', items: [codon('first'), codon('second')] },
            ],
          },
          codon('report'),
        ],
      },
      script,
    });
    const executionDir = join(world.root, 'execution');
    const child = spawnChild(CHILD, [
      world.hankDir,
      executionDir,
      join(world.root, 'home'),
      'second',
      'quick',
    ]);
    await child.waitForLine('RUNNING');
    const before = await readState(join(executionDir, '.hankweave'));
    const agentPid = (
      before.state.runs[0]?.codons.find((record) => record.codonId === 'second') as
        | { claudePid?: number }
        | undefined
    )?.claudePid;
    await child.kill();
    if (agentPid) {
      try {
        process.kill(-agentPid, 'SIGKILL');
      } catch {}
    }
    // The block had not merged: agentRoot holds none of the branches' files yet.
    const agentRoot = join(executionDir, 'agentRoot');
    expect(existsSync(join(agentRoot, 'quick.txt'))).toBe(false);

    const restarted = runtimeFor(world, { executionDir, env: agentEnv(world.root) });
    await restarted.runtime.start();
    const exit = await restarted.runtime.finished;
    expect(exit.exitCode).toBe(0);
    expect(asked(world, 'quick')).toBe(0);
    expect(asked(world, 'first')).toBe(0);
    expect(asked(world, 'second')).toBeGreaterThan(0);
    for (const file of [
      'plan.txt',
      'quick.txt',
      'slow/first.txt',
      'slow/second.txt',
      'report.txt',
    ]) {
      expect(readFileSync(join(agentRoot, file), 'utf8'), file).not.toBe('');
    }
    const { state } = await readState(join(executionDir, '.hankweave'));
    const crashed = state.runs.at(-1);
    expect(crashed?.status).toBe('crashed');
    const recovery = state.runs[0];
    expect(recovery?.codons.map((record) => `${record.codonId}:${record.status}`)).toEqual([
      'second:completed',
      'work:completed',
      'report:completed',
    ]);
    expect(shadowGit(executionDir, ['fsck', '--full'])).toBe('');
  }, 120_000);
});
