import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueueWorld, type QueueWorld } from '../test/queue-world.js';
import type { HankJobData } from './job-data.js';
import { newJobId, submitHank } from './submit-hank.js';

describe('submitHank()', () => {
  let world: QueueWorld;
  beforeEach(() => {
    world = createQueueWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('adds one job with attempts 1 and the job data a worker needs', async () => {
    const hank = world.writeHank('ok', 1);
    const jobId = await submitHank(world.redisUrl, {
      hank: join(world.root, 'ok'),
      data: world.dataDir,
      queueName: world.queueName,
      options: { model: 'haiku', maxCost: 2, env: ['ANTHROPIC_API_KEY'] },
    });
    expect(jobId).toMatch(/^[0-9a-z]+-[0-9a-f]{8}$/);
    const job = await world.queue.getJob(jobId);
    expect(job?.opts.attempts).toBe(1);
    expect(job?.name).toBe('ok');
    expect(job?.data).toEqual({
      version: 1,
      hankPath: hank,
      dataPath: world.dataDir,
      hankName: 'ok',
      options: { model: 'haiku', maxCost: 2, env: ['ANTHROPIC_API_KEY'] },
      submittedAt: expect.any(String),
      submittedBy: expect.any(String),
    } satisfies HankJobData);
  });

  it('fixes the execution directory at submit time with executionBaseDir', async () => {
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('based', 1),
      data: world.dataDir,
      executionBaseDir: '/shared/executions',
    });
    const job = await world.queue.getJob(jobId);
    expect(job?.data.executionDir).toBe(`/shared/executions/jobs/${jobId}`);
  });

  it("refuses an invalid hank with the runtime's error and adds nothing", async () => {
    const hank = world.writeHank('bad', 1);
    writeFileSync(hank, JSON.stringify({ meta: { name: 'bad' }, hank: [{ id: 'x' }] }));
    await expect(submitHank(world.queue, { hank, data: world.dataDir })).rejects.toMatchObject({
      code: 'RUNTIME_INVALID_HANK',
    });
    await expect(
      submitHank(world.queue, { hank: join(world.root, 'missing.json'), data: world.dataDir }),
    ).rejects.toMatchObject({ code: 'RUNTIME_HANK_NOT_FOUND' });
    expect(await world.queue.count()).toBe(0);
  });

  it('refuses relative paths, missing data or script, and bad options', async () => {
    const hank = world.writeHank('paths', 1);
    const refused = async (request: Parameters<typeof submitHank>[1], field: string) =>
      expect(submitHank(world.queue, request)).rejects.toMatchObject({
        code: 'QUEUE_INVALID_JOB',
        details: { field },
      });
    await refused({ hank: 'paths/hank.json', data: world.dataDir }, 'hank');
    await refused({ hank, data: 'data' }, 'data');
    await refused({ hank, data: join(world.root, 'nothing') }, 'data');
    await refused(
      { hank, data: world.dataDir, options: { scriptedModel: join(world.root, 'no.json') } },
      'options.scriptedModel',
    );
    await refused({ hank, data: world.dataDir, options: { maxCost: -1 } }, 'options.maxCost');
    await refused({ hank, data: world.dataDir, options: { env: ['NOT A NAME'] } }, 'options.env');
    expect(await world.queue.count()).toBe(0);
  });

  it('fails with QUEUE_REDIS_UNREACHABLE naming the URL when Redis does not answer', async () => {
    await expect(
      submitHank('redis://127.0.0.1:1', { hank: world.writeHank('x', 1), data: world.dataDir }),
    ).rejects.toMatchObject({
      code: 'QUEUE_REDIS_UNREACHABLE',
      details: { url: 'redis://127.0.0.1:1' },
    });
  });
});

describe('newJobId()', () => {
  it('sorts by submit time', () => {
    expect(newJobId(1_000) < newJobId(2_000_000)).toBe(true);
  });
});
