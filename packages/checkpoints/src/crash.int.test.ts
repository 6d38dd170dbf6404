import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from '@hankweave/durable-io';
import { atDepth, type ChildUnderTest, spawnChild } from '@hankweave/durable-io/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childBundle } from '../test/build-child.js';
import { cleanupExecutions, makeExecution } from '../test/helpers.js';
import { nativeGitEnv, runNativeGit } from './testing.js';

/** 30 in CI, 100 in `pnpm test:long` (HANKWEAVE_TEST_DEPTH=long). */
const KILLS = atDepth({ short: 30, long: 100 });
// A bound for a machine too slow to reach KILLS, not the test's pace: on the project's 2-core
// machine 100 kills take about 45 s, and a CI run stopped at 99 after a 45-second budget.
const BUDGET_MS = 90_000;
const crashChild = childBundle('crash-child');

beforeAll(() => crashChild.build(), 60_000);

afterAll(() => {
  cleanupExecutions();
  crashChild.remove();
});

/** One child: checkpoints (and restores) in a loop until killed; see test/crash-child.ts. */
function start(exec: string, seed: number, incarnation: number): ChildUnderTest {
  return spawnChild(crashChild.script, [exec, String(seed), String(incarnation)]);
}

/** Native git without blocking the event loop, so two repositories can be checked at once. */
function git(
  exec: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn('git', args, {
      cwd: join(exec, 'agentRoot'),
      env: { ...nativeGitEnv(exec), ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (status) => done({ status: status ?? -1, out }));
  });
}

/** The tree git would make of the whole work tree right now (the in-flight checkpoint's tree). */
async function workTreeTree(exec: string): Promise<string> {
  const env = { GIT_INDEX_FILE: join(exec, 'verify-index') };
  rmSync(env.GIT_INDEX_FILE, { force: true });
  await git(exec, ['add', '-A', '.'], env);
  return (await git(exec, ['write-tree'], env)).out.trim();
}

/** Counters shared by the parallel kill loops. */
interface Tally {
  kills: number;
  inFlight: number;
  began: number;
}

/**
 * Spawns, kills and checks one repository's children until the shared tally reaches KILLS or
 * the time budget runs out.
 */
async function killLoop(exec: string, lane: number, tally: Tally): Promise<void> {
  const trees = new Set<string>(['4b825dc642cb6eb9a060e54bf8d69288fbee4904']);
  for (
    let incarnation = 1;
    tally.kills < KILLS && Date.now() - tally.began < BUDGET_MS;
    incarnation++
  ) {
    const seed = ((incarnation * 2654435761) ^ (lane * 40503)) >>> 0;
    const child = start(exec, seed, incarnation);
    if (incarnation % 8 === 0)
      await sleep(seed % 60); // now and then, kill during open()
    else {
      // Resolves on `ready`, or when the child exits without it (the check below reports that).
      await child.waitForLine((line) => line.startsWith('ready')).catch(() => undefined);
      await sleep(5 + (seed % 120));
    }
    const exit = await child.kill();
    if (exit.signal !== 'SIGKILL') {
      throw new Error(
        `child ${lane}/${incarnation} exited by itself (${exit.code}): ${exit.stderr}`,
      );
    }
    tally.kills++;
    let pending: string | undefined;
    for (const line of exit.lines) {
      const [kind, codonId, , tree] = line.split(' ');
      if (kind === 'done' && tree) trees.add(tree);
      pending = kind === 'pending' ? codonId : undefined;
    }
    const fsck = await git(exec, ['fsck', '--full', '--no-dangling']);
    expect(fsck.status, `git fsck after kill ${tally.kills}: ${fsck.out}`).toBe(0);
    expect(fsck.out).not.toMatch(/error|missing|broken|corrupt/i);
    // Every run branch and HEAD (detached after a restore) must be a complete checkpoint.
    const tips = await git(exec, [
      'log',
      '--no-walk=unsorted',
      '--format=%H %T %s',
      'HEAD',
      '--branches=run-*',
    ]);
    expect(tips.status, tips.out).toBe(0);
    for (const tip of tips.out.trim().split('\n').filter(Boolean)) {
      const [, tree, subject] = tip.split(' ') as [string, string, string];
      if (trees.has(tree)) continue;
      // Not reported done: it must be the checkpoint in flight when the child died.
      expect(pending, `tip ${tip} is no reported checkpoint`).toBeDefined();
      expect(subject).toBe(`completed:${pending}`);
      expect(tree).toBe(await workTreeTree(exec));
      trees.add(tree);
      tally.inFlight++;
    }
  }
}

describe('CheckpointEngine', () => {
  describe('checkpoint() under SIGKILL', () => {
    it('leaves a repository git fsck accepts, with every branch at a complete checkpoint', async () => {
      const lanes = [makeExecution(), makeExecution()];
      const tally: Tally = { kills: 0, inFlight: 0, began: Date.now() };
      // Two repositories in parallel: one child starts while the other lane runs git fsck.
      await Promise.all(lanes.map((lane, index) => killLoop(lane.exec, index, tally)));
      const kills = tally.kills;
      const x = lanes[0] as (typeof lanes)[number];
      expect(kills).toBeGreaterThanOrEqual(KILLS);

      // The survivor opens it, lists everything git lists, and keeps working.
      const engine = await x.open();
      const listed = await engine.list();
      const all = Number(runNativeGit(x.exec, ['rev-list', '--all', '--count']).stdout.trim());
      expect(listed.length).toBe(all - 1);
      const last = await engine.checkpoint({
        type: 'exit',
        codonId: 'final',
        codonName: 'Final',
        runId: 'after',
        durationMs: 0,
        files: [],
      });
      await engine.restore(listed[listed.length - 1]?.sha ?? last.sha);
      expect(runNativeGit(x.exec, ['fsck', '--full', '--no-dangling']).status).toBe(0);
    }, 150_000);
  });
});
