import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalReadOnly } from '@hankweave/journal';
import { readState, validateState } from '@hankweave/state';
import {
  codonExecutionSchema,
  executionMetaSchema,
  type HankweaveEvent,
  stateSchema,
} from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// One real run of the example hank (3 codons: a rig, continue-previous, a 2-iteration loop) with
// the real Claude Code on the scripted model; every check reads what the run left on disk.
describe('a hank run end to end', () => {
  let world: TestWorld;
  let executionDir: string;
  let events: HankweaveEvent[];
  let exitCode: number;

  beforeAll(async () => {
    world = await makeWorld();
    const run = runtimeFor(world);
    events = run.events;
    await run.runtime.start();
    executionDir = run.runtime.executionDir;
    exitCode = (await run.runtime.finished).exitCode;
  }, 120_000);
  afterAll(() => world.close());

  it('completes every codon and exits 0', () => {
    expect(exitCode).toBe(0);
    const completed = events.filter((event) => event.type === 'codon.completed');
    expect(completed.map((event) => [event.data.codonId, event.data.success])).toEqual([
      ['observe', true],
      ['summarize', true],
      ['polish-pass#0', true],
      ['polish-pass#1', true],
    ]);
  });

  it('leaves the execution directory of seed 001', () => {
    for (const path of [
      'agentRoot',
      'rigArchive',
      '.hankweave/runtime.lock',
      '.hankweave/execution-meta.json',
      '.hankweave/state.json',
      '.hankweave/state.json.bak',
      '.hankweave/events/events.jsonl',
      '.hankweave/logs/server.log',
      '.hankweave/checkpoints/.hankweavecheckpoints',
      '.hankweave/checkpoints/.gitconfig',
      '.hankweave/sentinels/outputs',
      '.hankweave/sentinels/history',
      '.hankweave/runs',
    ]) {
      if (path === '.hankweave/runtime.lock')
        expect(existsSync(join(executionDir, path)), `${path} is released`).toBe(false);
      else expect(existsSync(join(executionDir, path)), path).toBe(true);
    }
    expect(readdirSync(join(executionDir, 'agentRoot')).sort()).toEqual([
      'notes',
      'read_only_data_source',
      'summary.md',
    ]);
    expect(
      readFileSync(join(executionDir, 'agentRoot/read_only_data_source/cities.csv'), 'utf8'),
    ).toContain('Lisbon');
    const meta = executionMetaSchema.parse(
      JSON.parse(readFileSync(join(executionDir, '.hankweave/execution-meta.json'), 'utf8')),
    );
    expect(meta.linkType).toBe('symlink');
    const [run] = readdirSync(join(executionDir, '.hankweave/runs'));
    expect(readdirSync(join(executionDir, '.hankweave/runs', run as string)).sort()).toEqual([
      'observe-claude.log',
      'polish-pass_0-claude.log',
      'polish-pass_1-claude.log',
      'summarize-claude.log',
    ]);
    expect(readFileSync(join(executionDir, '.hankweave/logs/server.log'), 'utf8')).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z \[INFO\] Starting HankweaveRuntime/,
    );
  });

  it('writes a valid state with the plan expanded and the run completed', async () => {
    const { state, validation, source } = await readState(join(executionDir, '.hankweave'));
    expect(source).toBe('primary');
    expect(validation.errors).toEqual([]);
    expect(
      stateSchema.parse(
        JSON.parse(readFileSync(join(executionDir, '.hankweave/state.json'), 'utf8')),
      ),
    ).toBeTruthy();
    expect(state.currentRunId).toBeNull();
    expect(state.runs).toHaveLength(1);
    const run = state.runs[0];
    expect(run?.status).toBe('completed');
    expect(run?.codons.map((codon) => `${codon.codonId}:${codon.status}`)).toEqual([
      'observe:completed',
      'summarize:completed',
      'polish-pass#0:completed',
      'polish-pass#1:completed',
    ]);
    expect(state.executionPlan.map((entry) => entry.codonId)).toEqual([
      'observe',
      'summarize',
      'polish-pass#0',
      'polish-pass#1',
    ]);
    const [observe, summarize] = run?.codons ?? [];
    expect(observe).toMatchObject({
      rigSetupCheckpoint: expect.any(String),
      completionCheckpoint: expect.any(String),
      resultMessageReceived: true,
      exitCode: 0,
    });
    expect(observe?.status === 'completed' && observe.finalCost).toBeGreaterThan(0);
    // continue-previous resumed observe's session.
    expect(summarize).toMatchObject({
      previousSessionId: (observe as { claudeSessionId: string }).claudeSessionId,
    });
    expect((await validateState(state)).errors).toEqual([]);
  });

  it('journals the expected event sequence for each codon', async () => {
    const journal = await openJournalReadOnly(join(executionDir, '.hankweave/events/events.jsonl'));
    const journaled: HankweaveEvent[] = [];
    for await (const event of journal.getAllEvents()) journaled.push(event as HankweaveEvent);
    await journal.close();
    expect(journaled.map((event) => event.id)).toEqual(events.map((event) => event.id));
    const observe = journaled
      .filter(
        (event) =>
          (event.data as { codonId?: string }).codonId === 'observe' &&
          event.type !== 'state.transition',
      )
      .map((event) => event.type);
    const order = [
      'rig.output',
      'rig.setup.completed',
      'file.updated',
      'filetree.updated',
      'codon.started',
      'assistant.action',
      'tool.result',
      'token.usage',
      'codon.completed',
    ];
    for (const type of order) expect(observe, type).toContain(type);
    expect(observe.indexOf('rig.setup.completed')).toBeLessThan(observe.indexOf('codon.started'));
    expect(observe.indexOf('codon.started')).toBeLessThan(observe.indexOf('tool.result'));
    expect(observe.at(-1)).toBe('codon.completed');
    const written = journaled.find(
      (event) => event.type === 'file.updated' && event.data.path === 'notes/observations.md',
    );
    expect(written?.data).toMatchObject({ action: 'created', source: { kind: 'tool_use' } });
    const loops = journaled
      .filter((event) => event.type === 'loop.iteration.completed')
      .map((event) => event.data);
    expect(loops).toMatchObject([
      { loopId: 'polish', iteration: 0, isFinal: false },
      { loopId: 'polish', iteration: 1, isFinal: true, terminationReason: 'iteration_limit' },
    ]);
    const transitions = journaled
      .filter((event) => event.type === 'state.transition')
      .map((event) => event.data.transitionType);
    expect(transitions[0]).toBe('InitialCheckpointSet');
    expect(transitions.at(-1)).toBe('RunCompleted');
    // Seed 003's cost recipe: the token.usage events add up to the codons' final costs.
    const tokenTotal = journaled
      .filter((event) => event.type === 'token.usage')
      .reduce((sum, event) => sum + event.data.totalCost, 0);
    const codonTotal = journaled
      .filter((event) => event.type === 'codon.completed')
      .reduce((sum, event) => sum + event.data.cost, 0);
    expect(tokenTotal).toBeCloseTo(codonTotal, 9);
  });

  it('sends state.snapshot with codon execution records after each codon (reference §3.3)', () => {
    const snapshots = events.filter(
      (event) => event.type === 'state.snapshot',
    ) as HankweaveEvent<'state.snapshot'>[];
    expect(snapshots).toHaveLength(4);
    const last = snapshots.at(-1)?.data;
    expect(last && 'currentCodon' in last).toBe(false);
    const records = (last?.completedCodons ?? []).map((entry) => codonExecutionSchema.parse(entry));
    expect(records.map((record) => [record.codonId, record.status])).toEqual([
      ['observe', 'completed'],
      ['summarize', 'completed'],
      ['polish-pass#0', 'completed'],
      ['polish-pass#1', 'completed'],
    ]);
    // The records are the state's own: what a dashboard reads from the stream matches the file.
    expect(snapshots[0]?.data.completedCodons).toHaveLength(1);
    expect(records[0]).toMatchObject({ exitCode: 0, resultMessageReceived: true });
  });

  it('leaves a shadow repository that native git reads: commits, run branch, trees', () => {
    expect(shadowGit(executionDir, ['fsck', '--full'])).toBe('');
    const subjects = shadowGit(executionDir, ['log', '--all', '--topo-order', '--format=%s'])
      .trim()
      .split('\n');
    const runId = (
      JSON.parse(readFileSync(join(executionDir, '.hankweave/state.json'), 'utf8')) as {
        runs: { runId: string }[];
      }
    ).runs[0]?.runId;
    expect(subjects).toEqual([
      `completed:polish-pass#1 [run:${runId}] Polish the summary`,
      `completed:polish-pass#0 [run:${runId}] Polish the summary`,
      `completed:summarize [run:${runId}] Summarise the observations`,
      `completed:observe [run:${runId}] Observe the data`,
      `rig-setup:observe [run:${runId}] Observe the data`,
      'Initial checkpoint setup',
    ]);
    expect(
      shadowGit(executionDir, ['branch', '--format=%(refname:short)']).trim().split('\n'),
    ).toContain(`run-${runId}`);
    // The completed checkpoint of summarize holds exactly the tracked files at that moment.
    const sha = shadowGit(executionDir, [
      'log',
      '--all',
      '--format=%H',
      '--grep=completed:summarize',
    ]).trim();
    expect(
      shadowGit(executionDir, ['ls-tree', '-r', '--name-only', sha]).trim().split('\n'),
    ).toEqual(['notes/README.md', 'notes/observations.md', 'summary.md']);
    expect(shadowGit(executionDir, ['show', `${sha}:summary.md`])).toContain('# Three cities');
  });
});
