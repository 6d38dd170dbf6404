import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { codon, writes } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor } from '../../test/harness-env.js';

// Parallel blocks on the real agent with the scripted model (issue 36): branches run at once,
// each in its own work tree, and merge back into agentRoot with a three-way merge; a conflict
// fails the block naming both sides, or is settled by branch order or by a resolver codon.

/** Codon `id` writes `path`, its model answering after `delayMs`. */
const writing = (id: string, path: string, content: string, delayMs = 0) =>
  writes(id, path, content, delayMs > 0 ? { delayMs } : {});

const block = (branches: [string, unknown[]][], extra: Record<string, unknown> = {}) => ({
  type: 'parallel',
  id: 'review',
  name: 'Review',
  branches: branches.map(([id, items]) => ({ id, items })),
  ...extra,
});
const completions = (events: HankweaveEvent[]) =>
  events
    .filter((event) => event.type === 'codon.completed')
    .map((event) => {
      const data = event.data as { codonId: string; success: boolean };
      return `${data.codonId}:${data.success ? 'ok' : 'failed'}`;
    });
const records = (state: { runs: { codons: Record<string, unknown>[] }[] }) =>
  state.runs.flatMap((run) => run.codons);
const git = (gitDir: string, ...args: string[]) =>
  execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8' }).trim();

async function play(hank: unknown[], conversations: unknown[]) {
  const world = await makeWorld({
    hank: { meta: { name: 'parallel', version: '1.0.0' }, hank },
    script: { conversations },
  });
  const { runtime, events } = runtimeFor(world);
  await runtime.start();
  const exit = await runtime.finished;
  await world.close();
  const executionDir = runtime.executionDir;
  return {
    exit,
    events,
    state: runtime.getState(),
    world,
    agentRoot: join(executionDir, 'agentRoot'),
    gitDir: join(executionDir, '.hankweave', 'checkpoints', '.hankweavecheckpoints'),
    executionDir,
  };
}

const base = 'one\ntwo\nthree\nfour\nfive\n';

describe('parallel blocks with the real agent', () => {
  it('runs three branches at once, each in its own work tree, and merges them cleanly', async () => {
    const { exit, events, state, agentRoot, gitDir, executionDir } = await play(
      [
        codon('plan'),
        block([
          ['on-style', [codon('style')]],
          ['on-tests', [codon('tests')]],
          ['on-docs', [codon('docs'), codon('docs-index')]],
        ]),
        codon('report'),
      ],
      [
        writing('plan', 'plan.txt', base),
        writing('style', 'style.txt', 'style notes\n', 1500),
        writing('tests', 'tests.txt', 'test notes\n', 1500),
        writing('docs', 'docs/notes.txt', 'docs notes\n', 1500),
        writing('docs-index', 'docs/index.txt', 'index\n'),
        writing('report', 'report.txt', 'report\n'),
      ],
    );
    expect(exit.exitCode).toBe(0);
    expect(completions(events).sort()).toEqual(
      ['plan:ok', 'style:ok', 'tests:ok', 'docs:ok', 'docs-index:ok', 'report:ok'].sort(),
    );
    // Every branch's files are in agentRoot after the merge, and the codon after the block ran
    // on the merged tree.
    for (const file of ['plan.txt', 'style.txt', 'tests.txt', 'docs/notes.txt', 'docs/index.txt']) {
      expect(existsSync(join(agentRoot, file)), file).toBe(true);
    }
    // The branches ran at the same time: each started before any other completed.
    const firstDone = events.findIndex(
      (event) =>
        event.type === 'codon.completed' &&
        ['style', 'tests', 'docs'].includes(String(event.data.codonId)),
    );
    const startedBefore = events
      .slice(0, firstDone)
      .filter((event) => event.type === 'codon.started')
      .map((event) => String(event.data.codonId));
    expect(startedBefore).toEqual(expect.arrayContaining(['style', 'tests', 'docs']));
    // Each event of a branch codon says which branch it runs in; the others say none.
    const branchOf = (type: string, codonId: string) =>
      events.find((event) => event.type === type && event.data.codonId === codonId)?.data.branch;
    for (const type of ['codon.started', 'codon.completed']) {
      expect(branchOf(type, 'docs-index')).toEqual({ blockId: 'review', branchId: 'on-docs' });
      expect(branchOf(type, 'report')).toBeUndefined();
    }
    // Each branch wrote only its own work tree: no branch saw another's files.
    const tree = (name: string) => join(executionDir, 'branches', `review.on-${name}`, 'agentRoot');
    expect(existsSync(join(tree('style'), 'style.txt'))).toBe(true);
    expect(existsSync(join(tree('style'), 'tests.txt'))).toBe(false);
    expect(existsSync(join(tree('tests'), 'plan.txt'))).toBe(true);
    // The merge is recorded under the block's id with a merge checkpoint that native git reads
    // as a commit joining the base and every branch.
    const merge = records(state).find((record) => record.codonId === 'review');
    expect(merge).toMatchObject({ status: 'completed' });
    const sha = String(merge?.completionCheckpoint);
    const parents = git(gitDir, 'rev-list', '--parents', '-n', '1', sha).split(' ').slice(1);
    expect(parents.length).toBe(4);
    expect(git(gitDir, 'show', `${sha}:docs/index.txt`)).toBe('index');
    expect(git(gitDir, 'fsck', '--no-dangling')).toBe('');
  }, 120_000);

  const conflicting = (onConflict?: unknown) => [
    codon('plan'),
    block(
      [
        ['left-side', [codon('left')]],
        ['right-side', [codon('right')]],
      ],
      onConflict === undefined ? {} : { merge: { onConflict } },
    ),
  ];
  const sides = [
    writing('plan', 'shared.txt', base),
    writing('left', 'shared.txt', base.replace('three', 'THREE from left')),
    writing('right', 'shared.txt', base.replace('three', 'three from right')),
  ];

  it('fails a conflicting merge naming the file and both sides, leaving agentRoot as it was', async () => {
    const { exit, events, state, agentRoot } = await play(conflicting(), sides);
    expect(exit.exitCode).not.toBe(0);
    const error = events.find(
      (event) => event.type === 'error' && event.data.code === 'MERGE_CONFLICT',
    );
    expect(String(error?.data.message)).toMatch(/shared\.txt \(content: left-side vs right-side\)/);
    const conflict = (
      error?.data.context as { conflicts: { path: string; text?: string }[] } | undefined
    )?.conflicts[0];
    expect(conflict?.path).toBe('shared.txt');
    expect(conflict?.text).toContain('THREE from left');
    expect(conflict?.text).toContain('three from right');
    expect(readFileSync(join(agentRoot, 'shared.txt'), 'utf8')).toBe(base);
    expect(records(state).find((record) => record.codonId === 'review')).toMatchObject({
      status: 'failed',
    });
  }, 120_000);

  it('settles a conflict by branch order with ordered', async () => {
    const { exit, agentRoot, events } = await play(conflicting('ordered'), sides);
    expect(exit.exitCode).toBe(0);
    expect(readFileSync(join(agentRoot, 'shared.txt'), 'utf8')).toBe(
      base.replace('three', 'THREE from left'),
    );
    expect(
      events.some(
        (event) =>
          event.type === 'info' &&
          /shared\.txt \(content\) kept from branch left-side/.test(String(event.data.message)),
      ),
    ).toBe(true);
  }, 120_000);

  it('runs a resolver codon on the conflicted files when the merge has one', async () => {
    const resolved = base.replace('three', 'THREE from left and right');
    const { exit, agentRoot, world, state } = await play(
      conflicting({ resolver: codon('resolve') }),
      [...sides, writing('resolve', 'shared.txt', resolved)],
    );
    expect(exit.exitCode).toBe(0);
    expect(readFileSync(join(agentRoot, 'shared.txt'), 'utf8')).toBe(resolved);
    const asked = world.model.requests.find((request) =>
      JSON.stringify(request.body ?? '').includes('TASK_RESOLVE'),
    );
    expect(JSON.stringify(asked?.body)).toMatch(
      /shared\.txt.*content conflict between left-side and right-side/,
    );
    const merge = records(state).find((record) => record.codonId === 'review');
    const resolver = records(state).find((record) => record.codonId === 'review.resolve');
    expect(merge?.completionCheckpoint).toBe(resolver?.completionCheckpoint);
  }, 120_000);

  it('replays a parallel run: the same codons, the same outcomes and costs, no model', async () => {
    const recorded = await play(
      [
        codon('plan'),
        block([
          ['left-side', [codon('left')]],
          ['right-side', [codon('right'), codon('after-right')]],
        ]),
        codon('report'),
      ],
      [
        writing('plan', 'plan.txt', base),
        writing('left', 'left.txt', 'l\n'),
        writing('right', 'right.txt', 'r\n'),
        writing('after-right', 'after.txt', 'a\n'),
        writing('report', 'report.txt', 'report\n'),
      ],
    );
    expect(recorded.exit.exitCode).toBe(0);
    const outcomesOf = (state: typeof recorded.state) =>
      records(state)
        .map((record) => `${record.codonId}:${record.status}:${record.finalCost ?? 0}`)
        .sort();
    const replay = runtimeFor(recorded.world, {
      replay: { executionDir: recorded.executionDir, maxDelayMs: 0, minDelayMs: 0 },
      anthropicBaseUrl: 'http://127.0.0.1:9',
    });
    await replay.runtime.start();
    const exit = await replay.runtime.finished;
    expect(exit.exitCode).toBe(0);
    expect(outcomesOf(replay.runtime.getState())).toEqual(outcomesOf(recorded.state));
    expect(completions(replay.events).sort()).toEqual(completions(recorded.events).sort());
  }, 120_000);

  it('skips the whole block when its condition does not hold, and goes on after it', async () => {
    const { exit, events, state } = await play(
      [
        codon('plan'),
        block(
          [
            ['left-side', [codon('left')]],
            ['right-side', [codon('right')]],
          ],
          { when: { exists: 'go.txt' } },
        ),
        codon('report'),
      ],
      [...sides, writing('report', 'report.txt', 'r\n')],
    );
    expect(exit.exitCode).toBe(0);
    expect(completions(events)).toContain('report:ok');
    for (const id of ['left', 'right', 'review']) {
      expect(
        records(state).find((record) => record.codonId === id),
        id,
      ).toMatchObject({
        status: 'skipped',
        skippedBy: 'condition',
        conditionOf: 'block',
      });
    }
  }, 120_000);
});
