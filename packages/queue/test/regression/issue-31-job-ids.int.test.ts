import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJobData } from '../../src/job-data.js';
import { listJobs } from '../../src/list-jobs.js';
import { submitHank } from '../../src/submit-hank.js';
import { createQueueWorld, type QueueWorld, waitForState } from '../queue-world.js';

// Issue 31: a fleet job id `../../x` ran outside `--base`; a 20 MB job name flooded `jobs`.

describe('job ids and job data', () => {
  let world: QueueWorld;
  beforeEach(() => {
    world = createQueueWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('refuses a job id that is not one path-safe name at submit', async () => {
    const hank = world.writeHank('ids', 1);
    for (const jobId of ['../../x', 'a/b', '..', '.hidden', '', 'x'.repeat(129)]) {
      await expect(
        submitHank(world.queue, { hank, data: world.dataDir, jobId }),
      ).rejects.toMatchObject({ code: 'QUEUE_INVALID_JOB', details: { field: 'jobId' } });
    }
    expect(await world.queue.count()).toBe(0);
    expect(await submitHank(world.queue, { hank, data: world.dataDir, jobId: 'run-42.v1' })).toBe(
      'run-42.v1',
    );
  });

  it('never runs a job another tool added with the id ../../x, outside {base}/jobs', async () => {
    const hank = world.writeHank('escape', 1);
    // What submitHank writes, added directly with BullMQ (as any other client could).
    await world.queue.add(
      'escape',
      { version: 1, hankPath: hank, dataPath: world.dataDir, hankName: 'escape', options: {} },
      { jobId: '../../escaped', attempts: 1 },
    );
    await world.startWorker();
    expect(await waitForState(world.queue, '../../escaped', ['completed', 'failed'])).toBe(
      'failed',
    );
    const job = await world.queue.getJob('../../escaped');
    expect(job?.failedReason).toContain('is not a job id');
    // `{base}/jobs/../../escaped` is beside the base directory: nothing was made there.
    expect(join(world.baseDir, 'jobs', '../../escaped')).toBe(join(world.root, 'escaped'));
    expect(existsSync(join(world.root, 'escaped'))).toBe(false);
  });

  it('caps the job data, and cuts a huge hank name to one line', async () => {
    const huge = 'n'.repeat(20 * 1024 * 1024);
    expect(() =>
      parseJobData({
        version: 1,
        hankPath: '/h/hank.json',
        dataPath: '/d',
        hankName: huge,
        options: {},
      }),
    ).toThrow(expect.objectContaining({ code: 'QUEUE_INVALID_JOB' }));
    // A foreign job with a 20 MB name: the listing shows a bounded name.
    await world.queue.add(huge, { version: 1, hankPath: '/h', dataPath: '/d' }, { jobId: 'big' });
    const [listed] = await listJobs(world.queue);
    expect(listed?.hankName.length).toBeLessThanOrEqual(1024);
  });
});
