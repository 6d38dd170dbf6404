import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeFixture } from '../test/helpers/fixtures.js';
import { type PipelineStateFile, readPipelineState, writePipelineState } from './pipeline-state.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('sessions-pipeline-state-');
});
afterEach(() => dir.cleanup());

describe('readPipelineState()', () => {
  it('is undefined when the file is missing', async () => {
    expect(await readPipelineState(join(dir.path, 'state.json'))).toBeUndefined();
  });

  it("reads the seed's example", async () => {
    const file = await placeFixture(dir.path, 'seed/pipeline-state.json', 'state.json');
    const loaded = await readPipelineState(file);
    expect(loaded?.current_stage).toBe(2);
    expect(loaded?.stages.map((stage) => [stage.name, stage.status, stage.runs])).toEqual([
      ['improve-plan', 'completed', 5],
      ['refine-beads', 'running', 5],
    ]);
  });

  it("reads nulls, a missing runs (as null), 'killed', 'skipped' and extra fields", async () => {
    const file = await placeFixture(
      dir.path,
      'tolerant/pipeline-state-tolerant.json',
      'state.json',
    );
    const loaded = await readPipelineState(file);
    expect(loaded).toMatchObject({ status: 'killed', pipeline_yaml: 'pipeline.yaml' });
    expect(loaded?.stages[0]).toMatchObject({ runs: null, iterations_run: null });
    expect(loaded?.stages[1]).toMatchObject({
      status: 'skipped',
      output_dir: 'stage-2-refine-beads',
    });
  });

  it('throws SESSIONS_CORRUPT_FILE for a file that is not a pipeline state', async () => {
    const file = join(dir.path, 'state.json');
    await writeFile(file, '{"session": "x", "stages": "none"}');
    await expect(readPipelineState(file)).rejects.toMatchObject({ code: 'SESSIONS_CORRUPT_FILE' });
  });
});

describe('writePipelineState()', () => {
  it("writes the seed's field order, null completed_at, and reads back equal", async () => {
    const file = join(dir.path, '.claude', 'pipeline-runs', 'r', 'state.json');
    const written: PipelineStateFile = {
      stages: [
        {
          status: 'completed',
          name: 'plan',
          loop: 'plan',
          runs: 1,
          iterations_run: 1,
          reason: 'done',
        },
        { name: 'build', loop: 'build', runs: null, status: 'pending' },
      ],
      current_stage: 1,
      status: 'running',
      started_at: '2025-01-10T10:00:00Z',
      pipeline: 'my-hank',
      session: 'r',
    };
    await writePipelineState(file, written);
    const raw = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(raw)).toEqual([
      'session',
      'pipeline',
      'started_at',
      'status',
      'current_stage',
      'stages',
      'completed_at',
    ]);
    expect(Object.keys(raw.stages[0])).toEqual([
      'name',
      'loop',
      'runs',
      'status',
      'iterations_run',
      'reason',
    ]);
    expect(await readPipelineState(file)).toEqual({ ...written, completed_at: null });
  });
});
