import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { makeWorld, runtimeFor, type TestWorld, waitForEvent } from '../../test/harness-env.js';
import type { Runtime } from '../index.js';

// After a full run, a second runtime (no autostart) rolls back to each kind of checkpoint; native
// git tells what each checkpoint holds, and the work tree must match it exactly.
describe('rollback', () => {
  let world: TestWorld;
  let executionDir: string;
  let runtime: Runtime;
  let events: HankweaveEvent[];
  const agentFile = (path: string) => join(executionDir, 'agentRoot', path);
  const read = (path: string) =>
    existsSync(agentFile(path)) ? readFileSync(agentFile(path), 'utf8') : undefined;
  const shaOf = (grep: string) =>
    shadowGit(executionDir, ['log', '--all', '--format=%H', `--grep=^${grep} `]).trim();
  const trackedAt = (sha: string) =>
    shadowGit(executionDir, ['ls-tree', '-r', '--name-only', sha])
      .trim()
      .split('\n')
      .filter(Boolean);
  const matchesCheckpoint = (sha: string) => {
    for (const path of trackedAt(sha))
      expect(read(path), path).toBe(shadowGit(executionDir, ['show', `${sha}:${path}`]));
  };

  beforeAll(async () => {
    world = await makeWorld();
    const first = runtimeFor(world);
    await first.runtime.start();
    executionDir = first.runtime.executionDir;
    expect((await first.runtime.finished).exitCode).toBe(0);
    writeFileSync(agentFile('scratch.txt'), 'untracked work');
    const second = runtimeFor(world, { executionDir, autostart: false });
    runtime = second.runtime;
    events = second.events;
    await runtime.start();
  }, 120_000);
  afterAll(async () => {
    await runtime.close();
    await world.close();
  });

  it('restores a rig-setup checkpoint: only the rig files remain tracked, newer untracked files move aside', async () => {
    const sha = shaOf('rig-setup:observe');
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'observe', checkpointType: 'rig-setup' },
    });
    expect(trackedAt(sha)).toEqual(['notes/README.md']);
    matchesCheckpoint(sha);
    expect(read('notes/observations.md')).toBeUndefined();
    expect(read('summary.md')).toBeUndefined();
    // Made after every checkpoint: moved aside into the execution, not deleted (issue 38).
    expect(read('scratch.txt')).toBeUndefined();
    const debris = events.find((event) => event.type === 'rollback.completed')?.data.debris as {
      directory: string;
      files: string[];
    };
    expect(debris.files).toContain('scratch.txt');
    expect(
      readFileSync(join(executionDir, debris.directory, 'agentRoot/scratch.txt'), 'utf8'),
    ).toBe('untracked work');
    expect(shadowGit(executionDir, ['rev-parse', 'HEAD']).trim()).toBe(sha);
    expect(shadowGit(executionDir, ['rev-parse', '--abbrev-ref', 'HEAD']).trim()).toBe('HEAD');
  });

  it('restores completed checkpoints by codon and by partial sha', async () => {
    const summarize = shaOf('completed:summarize');
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'summarize', checkpointType: 'end' },
    });
    matchesCheckpoint(summarize);
    expect(read('summary.md')).not.toContain('approximate');
    const polish0 = shaOf('completed:polish-pass#0');
    await runtime.command({
      type: 'rollback.toCheckpoint',
      data: { checkpointSha: polish0.slice(0, 7) },
    });
    matchesCheckpoint(polish0);
    expect(read('summary.md')?.match(/approximate/g)).toHaveLength(1);
  });

  it('reaches a checkpoint of an abandoned timeline, and to the last success', async () => {
    const polish1 = shaOf('completed:polish-pass#1');
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'polish-pass#1', checkpointType: 'completed' },
    });
    matchesCheckpoint(polish1);
    expect(read('summary.md')?.match(/approximate/g)).toHaveLength(2);
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'observe', checkpointType: 'start' },
    });
    await runtime.command({ type: 'rollback.toLastSuccess' });
    matchesCheckpoint(shaOf('completed:polish-pass#1'));
  });

  it('announces each rollback and records continuation runs; history is kept', async () => {
    const completed = events.filter((event) => event.type === 'rollback.completed');
    expect(completed).toHaveLength(6);
    expect(events.filter((event) => event.type === 'rollback.started')).toHaveLength(6);
    expect(
      events.filter((event) => event.type === 'server.idle').map((event) => event.data.reason),
    ).toContain('rollback-completed');
    const state = runtime.getState();
    const reasons = state.runs.map((run) =>
      run.startingConditions.type === 'continuation' ? run.startingConditions.reason : 'fresh',
    );
    expect(reasons.filter((reason) => reason === 'rollback')).toHaveLength(6);
    expect(shadowGit(executionDir, ['fsck', '--full'])).toBe('');
    expect(shadowGit(executionDir, ['log', '--all', '--oneline']).trim().split('\n')).toHaveLength(
      6,
    );
  });

  it('continues from a rollback on a new run branch', async () => {
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'summarize', checkpointType: 'completed' },
    });
    await runtime.command({ type: 'codon.next' });
    await waitForEvent(
      events,
      (event) =>
        event.type === 'codon.completed' &&
        event.data.codonId === 'polish-pass#0' &&
        events.indexOf(event) > events.findLastIndex((e) => e.type === 'rollback.completed'),
    );
    const branches = shadowGit(executionDir, ['branch', '--format=%(refname:short)'])
      .trim()
      .split('\n')
      .filter((name) => name.startsWith('run-'));
    expect(branches).toHaveLength(2);
    expect(
      shadowGit(executionDir, ['log', '--all', '--format=%s']).match(/completed:polish-pass#0/g),
    ).toHaveLength(2);
    await expect(runtime.command({ type: 'rollback.toLastSuccess' })).resolves.toBeTruthy();
  });
});
