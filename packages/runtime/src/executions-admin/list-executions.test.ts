import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { sessionLayout, writeLoopState, writePipelineState } from '@hankweave/sessions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deadPid,
  loopEntry,
  makeExecution,
  makeWorld,
  pipelineEntry,
  type SessionsWorld,
} from '../../test/sessions-world.js';
import { listExecutions } from './list-executions.js';

describe('listExecutions()', () => {
  let world: SessionsWorld;
  beforeEach(async () => {
    world = await makeWorld();
  });
  afterEach(async () => {
    await world.temp.cleanup();
  });

  it('returns an empty list when the project has no registry', async () => {
    await expect(listExecutions({ projectDir: world.dir })).resolves.toEqual({
      sessions: [],
      problems: [],
    });
  });

  it('lists sessions newest first with cost, iterations and times', async () => {
    const executionDir = await makeExecution(world, 'exec-a', { cost: 0.25 });
    const layout = sessionLayout(world.dir);
    await world.registry.register(
      'pipeline-old',
      pipelineEntry({
        started_at: '2025-01-01T00:00:00.000Z',
        completed_at: '2025-01-01T00:01:30.000Z',
      }),
    );
    await world.registry.register(
      'pipeline-exec-a',
      pipelineEntry({
        started_at: '2025-01-02T00:00:00.000Z',
        completed_at: '2025-01-02T00:10:00.000Z',
        execution_dir: executionDir,
      }),
    );
    await world.registry.register(
      'loop-exec-a-polish',
      loopEntry('pipeline-exec-a', {
        started_at: '2025-01-02T00:01:00.000Z',
        completed_at: '2025-01-02T00:05:00.000Z',
        execution_dir: executionDir,
      }),
    );
    await writeLoopState(layout.loopStateFile('exec-a-polish'), {
      session: 'exec-a-polish',
      type: 'loop',
      loop_type: 'polish',
      started_at: '2025-01-02T00:01:00.000Z',
      status: 'completed',
      iteration: 3,
      history: [],
    });
    await writePipelineState(layout.pipelineStateFile('exec-a'), {
      session: 'exec-a',
      pipeline: 'hello',
      started_at: '2025-01-02T00:00:00.000Z',
      status: 'completed',
      current_stage: 1,
      stages: [
        { name: 'observe', loop: 'observe', runs: 1, status: 'completed', iterations_run: 1 },
        { name: 'polish', loop: 'polish', runs: 5, status: 'completed', iterations_run: 3 },
      ],
    });

    const { sessions, problems } = await listExecutions({ projectDir: world.dir });

    expect(problems).toEqual([]);
    expect(sessions.map((session) => session.key)).toEqual([
      'loop-exec-a-polish',
      'pipeline-exec-a',
      'pipeline-old',
    ]);
    const [loop, pipeline, old] = sessions;
    expect(pipeline).toMatchObject({
      type: 'pipeline',
      status: 'completed',
      alive: null,
      hank: 'hello',
      data: '/data/hello',
      endedAt: '2025-01-02T00:10:00.000Z',
      durationMs: 600_000,
      costUsd: 0.25,
      iterations: 3,
      executionDir,
      parent: null,
    });
    expect(loop).toMatchObject({
      type: 'loop',
      hank: 'hello',
      data: '/data/hello',
      costUsd: null,
      iterations: 3,
      maxIterations: 5,
      parent: 'pipeline-exec-a',
      durationMs: 240_000,
    });
    expect(old).toMatchObject({ costUsd: null, iterations: null, executionDir: null });
    expect(pipeline?.entry.execution_dir).toBe(executionDir);
  });

  it('measures a running session up to now and says whether its process lives', async () => {
    const gone = await deadPid();
    await world.registry.register(
      'pipeline-live',
      pipelineEntry({
        status: 'running',
        completed_at: null,
        started_at: '2025-01-02T00:00:00.000Z',
        pid: process.pid,
      }),
    );
    await world.registry.register(
      'pipeline-dead',
      pipelineEntry({ status: 'running', completed_at: null, pid: gone }),
    );
    await world.registry.register(
      'pipeline-elsewhere',
      pipelineEntry({ status: 'running', completed_at: null, hostname: `not-${hostname()}` }),
    );

    const { sessions } = await listExecutions({
      projectDir: world.dir,
      now: new Date('2025-01-02T00:00:42.000Z'),
    });
    const byKey = Object.fromEntries(sessions.map((session) => [session.key, session]));

    expect(byKey['pipeline-live']).toMatchObject({
      alive: true,
      durationMs: 42_000,
      endedAt: null,
    });
    expect(byKey['pipeline-dead']?.alive).toBe(false);
    expect(byKey['pipeline-elsewhere']?.alive).toBeNull();
  });

  it('reports entries that fail the schema as problems and lists the rest', async () => {
    await world.registry.register('pipeline-good', pipelineEntry());
    const file = sessionLayout(world.dir).registryFile;
    await writeFile(
      file,
      JSON.stringify({
        sessions: { 'pipeline-good': pipelineEntry(), 'pipeline-bad': { type: 'rocket' } },
      }),
    );

    const { sessions, problems } = await listExecutions({ projectDir: world.dir });

    expect(sessions.map((session) => session.key)).toEqual(['pipeline-good']);
    expect(problems).toEqual([expect.objectContaining({ key: 'pipeline-bad' })]);
  });

  it('rejects a registry that is not JSON with SESSIONS_CORRUPT_FILE', async () => {
    await world.registry.register('pipeline-good', pipelineEntry());
    await writeFile(sessionLayout(world.dir).registryFile, '{ not json');

    await expect(listExecutions({ projectDir: world.dir })).rejects.toMatchObject({
      code: 'SESSIONS_CORRUPT_FILE',
    });
  });
});
