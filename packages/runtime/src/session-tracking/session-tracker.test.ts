import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { readLoopState, SessionRegistry } from '@hankweave/sessions';
import { type HankConfig, type HankweaveState, hankConfigSchema } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeLogger } from '../events/server-log.js';
import { SessionTracker } from './session-tracker.js';

const config: HankConfig = hankConfigSchema.parse({
  meta: { name: 'demo', version: '1.0.0' },
  hank: [
    {
      type: 'loop',
      id: 'review',
      name: 'Review',
      terminateOn: { type: 'plateau', consensus: 2, minIterations: 1, maxIterations: 4 },
      codons: [
        {
          id: 'pass',
          name: 'Pass',
          model: 'sonnet',
          continuationMode: 'fresh',
          onFailure: 'ignore',
          promptText: 'x',
        },
      ],
    },
  ],
});
const emptyState = { runs: [], executionPlan: [] } as unknown as HankweaveState;

let temp: TempDir;
let warnings: string[];
const log: RuntimeLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message) => warnings.push(message),
  error: (message) => warnings.push(message),
};
const tracker = (executionDir: string) =>
  new SessionTracker({
    executionDir,
    hankPath: '/hanks/demo/hank.json',
    hankName: 'demo',
    dataPath: '/data',
    config,
    env: {},
    clock: () => new Date('2026-11-25T10:00:00.000Z'),
    log,
  });

beforeEach(async () => {
  temp = await makeTempDir('session-tracker-');
  warnings = [];
});
afterEach(() => temp.cleanup());

describe('SessionTracker', () => {
  it('notes a resume after a process that died, and keeps the first start time', async () => {
    const executionDir = join(temp.path, 'exec-1');
    mkdirSync(executionDir);
    const registry = new SessionRegistry(temp.path);
    await registry.register('pipeline-exec-1', {
      type: 'pipeline',
      started_at: '2026-11-24T09:00:00Z',
      project_path: temp.path,
      status: 'running',
      pid: 999_999_999,
    });
    await tracker(executionDir).open();
    const entry = (await registry.read()).sessions['pipeline-exec-1'];
    expect(entry).toMatchObject({
      status: 'running',
      started_at: '2026-11-24T09:00:00Z',
      resumed_at: '2026-11-25T10:00:00Z',
      pid: process.pid,
      execution_dir: executionDir,
    });
    expect(entry?.note).toMatch(/pid 999999999\) ended without closing the session/);
  });

  it('forgets the records of a re-run iteration and later ones (a rollback), on disk too', async () => {
    const executionDir = join(temp.path, 'exec-2');
    mkdirSync(executionDir);
    const sessions = tracker(executionDir);
    await sessions.open();
    const loop = config.hank[0] as Extract<HankConfig['hank'][number], { type: 'loop' }>;
    const record = (iteration: number, plateau: boolean) => ({
      iteration,
      timestamp: '2026-11-25T10:00:00Z',
      plateau,
      reasoning: null,
      decision: plateau ? ('stop' as const) : ('continue' as const),
    });
    await sessions.iterationStarting(loop, 1);
    await sessions.recordIteration('review', record(1, false));
    await sessions.iterationStarting(loop, 2);
    await sessions.recordIteration('review', record(2, true));
    await sessions.iterationStarting(loop, 3);
    await sessions.recordIteration('review', record(3, true));
    // Rolled back to the end of iteration 1: iteration 2 runs again.
    await sessions.iterationStarting(loop, 2);
    expect(sessions.history('review').map((r) => r.iteration)).toEqual([1]);
    const onDisk = await readLoopState(sessions.layout.loopStateFile('exec-2-review'));
    expect(onDisk?.history.map((r) => r.iteration)).toEqual([1]);
    expect(onDisk).toMatchObject({ status: 'running', iteration: 1 });
  });

  it('closes as killed, loops included, and writes nothing after closing', async () => {
    const executionDir = join(temp.path, 'exec-3');
    mkdirSync(executionDir);
    const sessions = tracker(executionDir);
    await sessions.open();
    const loop = config.hank[0] as Extract<HankConfig['hank'][number], { type: 'loop' }>;
    await sessions.iterationStarting(loop, 1);
    await sessions.close(emptyState, { kind: 'killed', note: 'stopped: SIGTERM' });
    const { sessions: entries } = await new SessionRegistry(temp.path).read();
    expect(entries['pipeline-exec-3']).toMatchObject({
      status: 'killed',
      killed_at: '2026-11-25T10:00:00Z',
      note: 'stopped: SIGTERM',
    });
    expect(entries['loop-exec-3-review']).toMatchObject({ status: 'killed' });
    await sessions.loopEnded('review', 1, 'plateau', false);
    await sessions.settled();
    const loopState = await readLoopState(sessions.layout.loopStateFile('exec-3-review'));
    expect(loopState?.status).toBe('running');
    expect(warnings).toEqual([]);
  });
});
