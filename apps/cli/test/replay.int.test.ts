import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, executionNames, runCli, type Sandbox } from './cli-harness.js';

interface CodonRow {
  codonId: string;
  status: string;
  finalCost?: number;
}

/** The codon records of an execution's state.json. */
function codons(executionDir: string): CodonRow[] {
  const state = JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
  return state.runs.flatMap((run: { codons: CodonRow[] }) =>
    run.codons.map(({ codonId, status, finalCost }) => ({ codonId, status, finalCost })),
  );
}

// `hankweave --replay <execution dir>` on the built binary: record the example with a dry run,
// then replay it with no model at all (reference §2.2, §8.2).
describe('hankweave --replay', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;

  beforeAll(() => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
  });
  afterAll(() => sandbox.cleanup());

  it('replays a recorded execution into a new one with the same codon outcomes and costs', async () => {
    const recorded = await runCli(
      [example.hankDir, example.dataDir, '--scripted-model', example.script, '--start-new'],
      { env: sandbox.env, cwd: sandbox.root },
    );
    expect(recorded.code).toBe(0);
    const [recordedName] = executionNames(sandbox.baseDir);
    const recordedDir = join(sandbox.baseDir, recordedName as string);
    const expected = codons(recordedDir);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.every((row) => row.status === 'completed' && (row.finalCost ?? 0) > 0)).toBe(
      true,
    );

    const replay = await runCli(['--replay', recordedDir, '--headless'], {
      // No model and no key: only the recorded logs can answer.
      env: {
        ...sandbox.env,
        ANTHROPIC_API_KEY: '',
        HANKWEAVE_REPLAY_MAX_DELAY_MS: '0',
        HANKWEAVE_REPLAY_SPEED_MS: '0',
      },
      cwd: sandbox.root,
    });
    expect(replay.code).toBe(0);
    const created = executionNames(sandbox.baseDir).filter((name) => name !== recordedName);
    expect(created).toHaveLength(1);
    expect(codons(join(sandbox.baseDir, created[0] as string))).toEqual(expected);
    expect(codons(recordedDir)).toEqual(expected);
  }, 120_000);

  it('refuses --replay with --execution', async () => {
    const run = await runCli(['--replay', sandbox.root, '--execution', sandbox.root], {
      env: sandbox.env,
      cwd: sandbox.root,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--replay');
  });
});
