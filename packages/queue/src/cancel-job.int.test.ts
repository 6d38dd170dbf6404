import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createQueueWorld,
  type QueueWorld,
  readState,
  waitForState,
  waitUntil,
} from '../test/queue-world.js';
import { cancelJob } from './cancel-job.js';
import type { JobProgress } from './job-progress.js';
import { submitHank } from './submit-hank.js';

describe('cancelJob()', () => {
  let world: QueueWorld;
  beforeEach(() => {
    world = createQueueWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('removes a job that is still waiting', async () => {
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('waiting', 1),
      data: world.dataDir,
    });
    const result = await cancelJob(world.redisUrl, jobId, { queueName: world.queueName });
    expect(result).toEqual({ jobId, outcome: 'removed', state: 'waiting' });
    expect(await world.queue.getJobState(jobId)).toBe('unknown');
    // Nothing is left behind for a worker to find.
    const worker = await world.startWorker();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(worker.events.map((event) => event.type)).toEqual(['worker.ready']);
  });

  it('stops a running job gracefully from another process and fails it as cancelled', async () => {
    // No polling for recorded requests: only the Relay's message can stop the run in time.
    const worker = await world.startWorker({ delayMs: 10_000 }, { cancelPollMs: 60_000 });
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('long', 2),
      data: world.dataDir,
    });
    await waitUntil(() => worker.events.some((event) => event.type === 'codon.started'));
    // A separate connection, as `hankweave jobs cancel` from another machine would use.
    const result = await cancelJob(world.redisUrl, jobId, {
      queueName: world.queueName,
      reason: 'operator said so',
    });
    expect(result).toEqual({ jobId, outcome: 'stopping', state: 'active' });
    const asked = Date.now();
    expect(await waitForState(world.queue, jobId, ['completed', 'failed'], 10_000)).toBe('failed');
    // Well under the agent's 10 s: the stop was immediate, not the end of the codon.
    expect(Date.now() - asked).toBeLessThan(5_000);
    const job = await world.queue.getJob(jobId);
    expect(job?.failedReason).toMatch(
      /^Cancelled \(operator said so\): the run stopped gracefully/,
    );
    expect((job?.progress as JobProgress | undefined)?.phase).toBe('finished');
    expect(worker.events.find((event) => event.type === 'job.stopping')).toMatchObject({
      cause: 'cancel',
      detail: 'operator said so',
    });
    // The run ended (not crashed): the execution can be resumed.
    const run = readState(join(world.baseDir, 'jobs', jobId)).runs[0];
    expect(run?.status).not.toMatch(/running|crashed/);
    expect(run?.codons[0]?.status).toBe('failed');
    expect(worker.events.at(-1)).toMatchObject({ type: 'job.failed', code: 'QUEUE_CANCELLED' });
  });

  it('answers finished for a job that already ended', async () => {
    await world.startWorker();
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('quick', 1),
      data: world.dataDir,
    });
    await waitForState(world.queue, jobId, ['completed']);
    expect(await cancelJob(world.queue, jobId)).toEqual({
      jobId,
      outcome: 'finished',
      state: 'completed',
    });
  });

  it('refuses an unknown job with QUEUE_JOB_NOT_FOUND', async () => {
    await expect(cancelJob(world.queue, 'no-such-job')).rejects.toMatchObject({
      code: 'QUEUE_JOB_NOT_FOUND',
    });
  });

  it('cancels a job whose message was missed, through the recorded request', async () => {
    // No Relay delivery can reach a worker that is not subscribed yet: the job is picked up
    // later and must still not run.
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('late', 1),
      data: world.dataDir,
    });
    const { markCancelled } = await import('./cancellation.js');
    await markCancelled(world.queue, { jobId, reason: 'recorded only', at: '' });
    const worker = await world.startWorker();
    expect(await waitForState(world.queue, jobId, ['completed', 'failed'])).toBe('failed');
    expect((await world.queue.getJob(jobId))?.failedReason).toBe(
      'Cancelled before it started (recorded only)',
    );
    expect(worker.events.map((event) => event.type)).not.toContain('job.started');
  });
});
