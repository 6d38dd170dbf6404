import { join } from 'node:path';
import { acquireRuntimeLock } from '@hankweave/state';
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

// The runtime lock is the final arbiter: the queue's lock says which worker should run a job,
// runtime.lock says which process does. A worker that meets a live holder (a partitioned worker
// still running, another host's worker with a fresh heartbeat) must wait, not run beside it.
describe('the runtime-lock guard', () => {
  let world: QueueWorld;
  beforeEach(() => {
    world = createQueueWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('delays a job whose execution a live process holds, and runs it once released', async () => {
    const worker = await world.startWorker({ delayMs: 20 });
    const hank = world.writeHank('guarded', 2);
    const executionDir = join(world.root, 'shared-execution');
    // A first job creates the execution; it completes normally.
    const first = await submitHank(world.queue, { hank, data: world.dataDir, executionDir });
    await waitForState(world.queue, first, ['completed']);

    // This process (alive, this host) now holds the execution, as a still-running worker would.
    const lock = await acquireRuntimeLock(join(executionDir, '.hankweave'), {
      heartbeatIntervalMs: 0,
    });
    const second = await submitHank(world.queue, { hank, data: world.dataDir, executionDir });
    await waitUntil(() =>
      worker.events.some((event) => event.type === 'job.delayed' && event.jobId === second),
    );
    expect(await waitForState(world.queue, second, ['delayed', 'waiting', 'active'])).not.toBe(
      'completed',
    );
    expect(worker.events.find((event) => event.type === 'job.delayed')).toMatchObject({
      reason: 'locked',
    });
    const job = await world.queue.getJob(second);
    expect((job?.progress as JobProgress | undefined)?.phase).toBe('locked');
    // A delay is no attempt: BullMQ's retry count is untouched.
    expect(job?.attemptsMade).toBe(0);
    // Nothing ran while the lock was held: the state still has the first job's run only.
    expect(readState(executionDir).runs).toHaveLength(1);
    expect(worker.events.filter((event) => event.type === 'codon.started')).toHaveLength(2);

    await lock.release();
    expect(await waitForState(world.queue, second, ['completed', 'failed'])).toBe('completed');
    const result = (await world.queue.getJob(second))?.returnvalue as JobResult;
    expect(result).toMatchObject({ executionDir, exitCode: 0 });
    expect(result.codons.map((codon) => codon.status)).toEqual(['completed', 'completed']);
    // Resumed after its last success: no codon ran again.
    expect(worker.events.filter((event) => event.type === 'codon.started')).toHaveLength(2);
  });

  it('stops the run of a worker that loses its queue lock; the job still completes once', async () => {
    const worker = await world.startWorker({ delayMs: 1_500 });
    const jobId = await submitHank(world.queue, {
      hank: world.writeHank('lost', 2),
      data: world.dataDir,
    });
    await waitUntil(() => worker.events.some((event) => event.type === 'codon.started'));
    // What a partition from Redis amounts to: the lock lapses and cannot be renewed.
    const client = await world.queue.getBackend().client;
    await client.del(world.queue.toKey(`${jobId}:lock`));
    await waitUntil(() =>
      worker.events.some((event) => event.type === 'job.stopping' && event.cause === 'lock-lost'),
    );
    // BullMQ hands the job out again (stalled); the runtime lock keeps the runs apart.
    expect(await waitForState(world.queue, jobId, ['completed', 'failed'])).toBe('completed');
    const state = readState(join(world.baseDir, 'jobs', jobId));
    expect(state.runs.length).toBeGreaterThan(1);
    const completions = state.runs.flatMap((run) =>
      run.codons.filter((codon) => codon.status === 'completed').map((codon) => codon.codonId),
    );
    expect(completions.sort()).toEqual(['step-0', 'step-1']);
    // The worker gave the job up; it did not fail it.
    expect(worker.events.map((event) => event.type)).toContain('job.abandoned');
    expect(worker.events.map((event) => event.type)).not.toContain('job.failed');
  });
});
