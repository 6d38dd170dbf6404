import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { buildAgentLog } from '@hankweave/harness/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.js';
import { openRecordedExecution, splitSessions } from './recorded-execution.js';

// A hand-written execution directory in the original runtime's layout (seed 001:
// `.hankweave/runs/{runId}/{codonId}-claude.log`, `#` kept, lines without our timestamps, no
// state.json). Each turn costs $0.006 (1000 input + 200 output tokens of claude-sonnet-4-5).
const TURN = { text: 'step', usage: { inputTokens: 1000, outputTokens: 200 } };
const KILL_NOTE = '{"type":"harness","subtype":"killed","reason":"budget"}';
let dir: TempDir;
let recorded: string;
beforeEach(async () => {
  dir = await makeTempDir('replay-original-');
  mkdirSync(join(dir.path, 'data'));
  writeFileSync(join(dir.path, 'data', 'notes.txt'), 'user data');
  recorded = join(dir.path, 'original');
  const run = join(recorded, '.hankweave', 'runs', '1736000000000-x7a2');
  mkdirSync(run, { recursive: true });
  const log = (name: string, lines: string[]) =>
    writeFileSync(join(run, `${name}-claude.log`), `${lines.join('\n')}\n`);
  log('observe', buildAgentLog({ turns: [TURN, TURN] }));
  // Spent five turns before the kill took effect: the replay must spend them too.
  log('spend', [
    ...buildAgentLog({ turns: [TURN, TURN, TURN, TURN, TURN], result: 'none' }),
    KILL_NOTE,
  ]);
});
afterEach(() => dir.cleanup());

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'claude-sonnet-4-5',
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
  ...extra,
});

describe('replay of an original-style execution directory', () => {
  it('replays each codon from its log, and a recorded kill plays to its end', async () => {
    const runtime = createRuntime({
      hank: {
        meta: { name: 'original', version: '1.0.0' },
        hank: [
          codon('observe'),
          codon('spend', { budget: { maxDollars: 0.01, onExceeded: 'complete' } }),
        ],
      },
      hankDir: dir.path,
      dataPath: join(dir.path, 'data'),
      executionBaseDir: join(dir.path, 'executions'),
      headless: true,
      // Paced so that the budget stop arrives mid-feed.
      replay: { executionDir: recorded, minDelayMs: 10, maxDelayMs: 10 },
    });
    await runtime.start();
    expect((await runtime.finished).exitCode).toBe(0);
    const records = runtime.getState().runs.flatMap((run) => run.codons);
    expect(records.map((record) => [record.codonId, record.status])).toEqual([
      ['observe', 'completed'],
      ['spend', 'completed'],
    ]);
    expect(records[0] && 'finalCost' in records[0] && records[0].finalCost).toBeCloseTo(0.012, 9);
    expect(records[1]?.budgetExceeded).toMatchObject({ currency: 'cost', limit: 0.01 });
    expect(records[1] && 'finalCost' in records[1] && records[1].finalCost).toBeCloseTo(0.03, 9);
  }, 60_000);

  it('finds logs by codon id with # kept or made file-safe, newest run in state.json first', () => {
    const runs = join(dir.path, 'ours', '.hankweave', 'runs');
    for (const [run, name] of [
      ['run-b', 'review_1-claude.log'],
      ['run-a', 'review_1-claude.log'],
      ['run-a', 'observe#0-claude.log'],
    ] as const) {
      mkdirSync(join(runs, run), { recursive: true });
      writeFileSync(join(runs, run, name), '');
    }
    // state.json lists runs newest first: run-a is the newer, whatever the names say.
    writeFileSync(
      join(dir.path, 'ours', '.hankweave', 'state.json'),
      JSON.stringify({ runs: [{ runId: 'run-a' }, { runId: 'run-b' }] }),
    );
    const execution = openRecordedExecution(join(dir.path, 'ours'));
    expect(execution?.runIds).toEqual(['run-b', 'run-a']);
    expect(execution?.logOf('review#1')).toBe(join(runs, 'run-a', 'review_1-claude.log'));
    expect(execution?.logOf('observe#0')).toBe(join(runs, 'run-a', 'observe#0-claude.log'));
    expect(execution?.logOf('missing')).toBeUndefined();
    // Given the .hankweave folder itself.
    expect(openRecordedExecution(join(dir.path, 'ours', '.hankweave'))?.runsDir).toBe(runs);
    expect(openRecordedExecution(join(dir.path, 'data'))).toBeUndefined();
  });
});

describe("replay of the original runtime's loop execution", () => {
  // The original names a loop codon's log after its runtime id with `-` for `#`
  // (`loop-codon-0-claude.log`) and records the path in state.json (`claudeLogPath`, relative to
  // .hankweave/); its records carry the fields of its era (compatibility.md), its logs no
  // timestamps. Each codon costs what its log says: 1, 2, 3 and 1 turns of $0.006.
  const RUN = '1740830400000-k3x9p';
  const codons = [
    { id: 'intro', turns: 1 },
    { id: 'loop-codon#0', turns: 2, log: 'loop-codon-0', loop: 0 },
    { id: 'loop-codon#1', turns: 3, log: 'loop-codon-1', loop: 1 },
    { id: 'outro', turns: 1 },
  ];
  const hank = {
    meta: { name: 'original-loop', version: '1.0.0' },
    hank: [
      codon('intro'),
      {
        type: 'loop',
        id: 'refine',
        name: 'Refine',
        terminateOn: { type: 'iterationLimit', limit: 2 },
        codons: [codon('loop-codon', { onFailure: 'abort' })],
      },
      codon('outro'),
    ],
  };

  function writeRecording(): string {
    const root = join(dir.path, 'original-loop');
    mkdirSync(join(root, '.hankweave', 'runs', RUN), { recursive: true });
    const records = codons.map((entry) => {
      const logPath = `runs/${RUN}/${entry.log ?? entry.id}-claude.log`;
      const lines = buildAgentLog({ turns: Array.from({ length: entry.turns }, () => TURN) });
      writeFileSync(join(root, '.hankweave', logPath), `${lines.join('\n')}\n`);
      const cost = entry.turns * 0.006;
      return {
        codonId: entry.id,
        startTime: '2025-03-01T12:00:00.000Z',
        status: 'completed',
        endTime: '2025-03-01T12:01:00.000Z',
        claudePid: 4242,
        claudeSessionId: `session-${entry.id}`,
        claudeLogPath: logPath,
        exitCode: 0,
        finalCost: cost,
        finalTokens: {
          inputTokens: 1000,
          outputTokens: 200,
          cacheCreationTokens: 0,
          cacheReadTokens: 0,
        },
        resultMessageReceived: true,
        assistantMessageCount: entry.turns,
        budgetExceeded: null,
        currentCost: cost,
        extensionCount: 0,
        completionCheckpoint: `sha-${entry.id}`,
        ...(entry.loop === undefined
          ? {}
          : { loopContext: { loopId: 'refine', iteration: entry.loop, codonIndexInLoop: 0 } }),
      };
    });
    writeFileSync(
      join(root, '.hankweave', 'state.json'),
      JSON.stringify({
        runs: [
          {
            runId: RUN,
            runFolder: join(root, '.hankweave', 'runs', RUN),
            gitBranch: `run-${RUN}`,
            startingConditions: { type: 'fresh', initialCheckpointSha: 'sha-initial' },
            codons: records,
            status: 'completed',
            startTime: '2025-03-01T12:00:00.000Z',
            endTime: '2025-03-01T12:05:00.000Z',
            serverPid: 4242,
          },
        ],
        currentRunId: null,
        executionPlan: [],
      }),
    );
    return root;
  }

  it('replays codon for codon, each from the log its record names', async () => {
    const recorded = writeRecording();
    expect(openRecordedExecution(recorded)?.logOf('loop-codon#1')).toBe(
      join(recorded, '.hankweave', 'runs', RUN, 'loop-codon-1-claude.log'),
    );
    const runtime = createRuntime({
      hank,
      hankDir: dir.path,
      dataPath: join(dir.path, 'data'),
      executionBaseDir: join(dir.path, 'executions'),
      headless: true,
      replay: { executionDir: recorded, minDelayMs: 0, maxDelayMs: 0 },
    });
    await runtime.start();
    expect((await runtime.finished).exitCode).toBe(0);
    const records = runtime.getState().runs.flatMap((run) => run.codons);
    expect(records.map((record) => record.codonId)).toEqual(codons.map((entry) => entry.id));
    for (const [at, entry] of codons.entries()) {
      const record = records[at] as { status: string; finalCost?: number };
      expect(record.status).toBe('completed');
      expect(record.finalCost).toBeCloseTo(entry.turns * 0.006, 9);
    }
  }, 60_000);
});

describe('splitSessions()', () => {
  const line = (value: object) => JSON.stringify(value);
  const init = line({ type: 'system', subtype: 'init' });
  const hook = line({ type: 'system', subtype: 'hook_response' });
  const assistant = line({ type: 'assistant' });
  const result = line({ type: 'result', subtype: 'success' });
  const errorResult = line({ type: 'result', subtype: 'error_during_execution' });
  const stderr = line({ type: 'stderr', message: 'bye' });

  it('cuts one session per start: after a result or a kill note, or at a second init', () => {
    const text = [
      hook,
      init,
      assistant,
      result,
      errorResult,
      stderr, // attempt 1, its late lines
      init,
      assistant,
      KILL_NOTE, // attempt 2, killed
      init,
      assistant, // attempt 3, died without a result
      init,
      assistant,
      result, // attempt 4
      '',
    ].join('\n');
    expect(splitSessions(text)).toEqual([
      [hook, init, assistant, result, errorResult, stderr],
      [init, assistant, KILL_NOTE],
      [init, assistant],
      [init, assistant, result],
    ]);
    expect(splitSessions('')).toEqual([]);
  });
});
