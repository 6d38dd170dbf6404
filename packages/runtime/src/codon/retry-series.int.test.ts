import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { FakeHarness } from '@hankweave/harness/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.js';

// Retry counts are durable: an attempt's place in its series is in its record, so a process that
// dies between two attempts (here: a forced stop during the retry pause, which leaves the run
// `running` for the next start to mark crashed, as a kill -9 does) grants no extra retry.
let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('retry-series-');
  mkdirSync(join(dir.path, 'data'));
  writeFileSync(join(dir.path, 'data', 'input.txt'), 'data\n');
});
afterEach(() => dir.cleanup());

const hank = {
  meta: { name: 'retries', version: '1.0.0' },
  hank: [
    {
      id: 'flaky',
      name: 'Flaky',
      model: 'claude-sonnet-4-5',
      continuationMode: 'fresh',
      promptText: 'Try.',
      onFailure: 'retry',
      retryConfig: { maxAttempts: 2, delayMs: 60_000 },
    },
  ],
};
const serverError = {
  scenario: { result: { error: 'API Error: 500 {"type":"error","error":{"type":"api_error"}}' } },
};

function runtimeWith(harness: FakeHarness) {
  return createRuntime({
    hank,
    hankDir: dir.path,
    dataPath: join(dir.path, 'data'),
    executionDir: join(dir.path, 'execution'),
    harness,
    headless: true,
    killGraceMs: 50,
  });
}

describe('retry series across a crash', () => {
  it('gives the attempt after a crash its place in the series, and no retry beyond maxAttempts', async () => {
    const harness = new FakeHarness({ script: serverError });
    const first = runtimeWith(harness);
    const retrying = new Promise<void>((resolve) =>
      first.on((event) => {
        if (event.type === 'codon.completed') resolve();
      }),
    );
    await first.start();
    await retrying;
    // Dies during the 60 s retry pause: nothing records the end of its run.
    await first.close({ force: true });
    expect(first.getState().runs[0]?.status).toBe('running');

    const second = runtimeWith(harness);
    await second.start();
    const exit = await second.finished;
    expect(exit.exitCode).toBe(1);
    const places = second
      .getState()
      .runs.flatMap((run) => run.codons)
      .map((record) => (record as { retryAttempt?: number }).retryAttempt ?? 1);
    // Attempt 1 before the crash, attempt 2 after it; maxAttempts 2: no third.
    expect(harness.starts).toHaveLength(2);
    expect(places.sort()).toEqual([1, 2]);
  }, 60_000);
});
