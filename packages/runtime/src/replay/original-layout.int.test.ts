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
    // run-b started first, run-a later: state.json's order wins over the names.
    writeFileSync(
      join(dir.path, 'ours', '.hankweave', 'state.json'),
      JSON.stringify({ runs: [{ runId: 'run-b' }, { runId: 'run-a' }] }),
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
