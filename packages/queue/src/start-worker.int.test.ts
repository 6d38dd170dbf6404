import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createQueueWorld,
  type QueueWorld,
  readState,
  waitForState,
  waitUntil,
} from '../test/queue-world.js';
import type { JobProgress } from './job-progress.js';
import type { JobResult } from './job-result.js';
import { submitHank } from './submit-hank.js';

describe('startWorker()', () => {
  let world: QueueWorld;
  beforeEach(() => {
    world = createQueueWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('runs a job to its summary and reports codon-level progress', async () => {
    const worker = await world.startWorker({ delayMs: 20, costUsd: 0.25 });
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('three', 3),
      data: world.dataDir,
    });
    expect(await waitForState(world.queue, jobId, ['completed', 'failed'])).toBe('completed');
    const job = await world.queue.getJob(jobId);
    const executionDir = join(world.baseDir, 'jobs', jobId);
    const result = job?.returnvalue as JobResult;
    expect(result).toMatchObject({
      status: 'completed',
      exitCode: 0,
      reason: 'all codons completed',
      executionDir,
      runs: 1,
      worker: worker.name,
    });
    expect(result.codons).toEqual(
      ['step-0', 'step-1', 'step-2'].map((codonId) => ({
        codonId,
        status: 'completed',
        cost: 0.25,
      })),
    );
    expect(result.cost).toBeCloseTo(0.75);
    const progress = job?.progress as JobProgress;
    expect(progress).toMatchObject({
      phase: 'finished',
      worker: worker.name,
      executionDir,
      resumed: false,
      completed: 3,
      failed: 0,
      current: null,
      last: { type: 'codon.completed', codonId: 'step-2', success: true, cost: 0.25 },
    });
    expect(progress.codons.map((codon) => [codon.codonId, codon.status])).toEqual([
      ['step-0', 'completed'],
      ['step-1', 'completed'],
      ['step-2', 'completed'],
    ]);
    expect(worker.events.map((event) => event.type)).toEqual([
      'worker.ready',
      'job.started',
      ...Array.from({ length: 3 }, () => ['codon.started', 'codon.completed']).flat(),
      'job.completed',
    ]);
    expect(readState(executionDir).runs[0]?.status).toBe('completed');
  });

  it("fails the job with the runtime's failure message when the run fails", async () => {
    const worker = await world.startWorker((codonId) =>
      codonId === 'step-1' ? { failWith: 'the model refused' } : {},
    );
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('failing', 3),
      data: world.dataDir,
    });
    expect(await waitForState(world.queue, jobId, ['completed', 'failed'])).toBe('failed');
    const job = await world.queue.getJob(jobId);
    expect(job?.failedReason).toBe('Codon step-1 failed: the model refused');
    expect(job?.attemptsMade).toBe(1);
    expect(worker.events.at(-1)).toMatchObject({ type: 'job.failed', code: 'QUEUE_RUN_FAILED' });
  });

  it('hands a running job back to the queue on close, and another worker resumes it', async () => {
    const first = await world.startWorker({ delayMs: 1_500 });
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('resumable', 2),
      data: world.dataDir,
    });
    await waitUntil(() => first.events.some((event) => event.type === 'codon.started'));
    await first.close();
    expect(first.events.map((event) => event.type)).toContain('job.delayed');
    expect(await world.queue.getJobState(jobId)).toMatch(/delayed|waiting/);
    const executionDir = join(world.baseDir, 'jobs', jobId);
    expect(readState(executionDir).runs[0]?.status).not.toBe('running');

    const second = await world.startWorker({ delayMs: 20 });
    expect(await waitForState(world.queue, jobId, ['completed', 'failed'])).toBe('completed');
    expect(second.events.find((event) => event.type === 'job.started')).toMatchObject({
      resumed: true,
    });
    const result = (await world.queue.getJob(jobId))?.returnvalue as JobResult;
    expect(result.runs).toBeGreaterThan(1);
    expect(result.codons.map((codon) => codon.status)).toEqual(['completed', 'completed']);
  });
});
