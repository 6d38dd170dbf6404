import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { inject } from 'vitest';
import { type HankWorker, type StartWorkerOptions, startWorker } from '../src/index.js';
import type { WorkerEvent } from '../src/worker-events.js';
import { type SleepingAgent, sleepingHarness } from './sleeping-harness.js';

/** A private world per test: a tmp dir with a hank and data, its own queue on the run's Redis. */
export interface QueueWorld {
  root: string;
  redisUrl: string;
  queueName: string;
  queue: Queue;
  baseDir: string;
  /** Writes a hank of `codons` codons; returns the hank.json path. */
  writeHank(name: string, codons: number): string;
  dataDir: string;
  /** A worker on this world's queue whose agents sleep (see sleepingHarness). */
  startWorker(
    agent?: SleepingAgent | ((codonId: string) => SleepingAgent),
    options?: Partial<StartWorkerOptions>,
  ): Promise<HankWorker & { events: WorkerEvent[] }>;
  cleanup(): Promise<void>;
}

export function createQueueWorld(): QueueWorld {
  const root = mkdtempSync(join(tmpdir(), 'hankweave-queue-'));
  const redisUrl = inject('redisUrl');
  const queueName = `test-${randomBytes(4).toString('hex')}`;
  const queue = new Queue(queueName, { connection: { url: redisUrl } });
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, 'input.txt'), 'input');
  const workers: HankWorker[] = [];
  return {
    root,
    redisUrl,
    queueName,
    queue,
    baseDir: join(root, 'executions'),
    dataDir,
    writeHank(name, codons) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      const hank = {
        meta: { name, version: '1.0.0' },
        hank: Array.from({ length: codons }, (_, index) => ({
          id: `step-${index}`,
          name: `Step ${index}`,
          model: 'sonnet',
          continuationMode: 'fresh',
          promptText: `Step ${index}.`,
        })),
      };
      writeFileSync(join(dir, 'hank.json'), JSON.stringify(hank, null, 2));
      return join(dir, 'hank.json');
    },
    async startWorker(agent = {}, options = {}) {
      const events: WorkerEvent[] = [];
      const worker = await startWorker({
        connection: redisUrl,
        queueName,
        baseDir: join(root, 'executions'),
        lockDurationMs: 2_000,
        stalledIntervalMs: 1_000,
        lockedRetryDelayMs: 500,
        cancelPollMs: 500,
        runtimeOptions: () => ({
          harness: sleepingHarness((start) =>
            typeof agent === 'function' ? agent(start.codonId) : agent,
          ),
        }),
        onEvent: (event) => events.push(event),
        ...options,
      });
      workers.push(worker);
      return Object.assign(worker, { events });
    },
    async cleanup() {
      await Promise.all(workers.map((worker) => worker.close({ force: true })));
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Waits until the job is in one of `states`; returns the state. */
export async function waitForState(
  queue: Queue,
  jobId: string,
  states: readonly string[],
  timeoutMs = 20_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await queue.getJobState(jobId);
    if (states.includes(state)) return state;
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} is ${state}, not ${states.join('/')} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until `predicate` holds. */
export async function waitUntil(predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The execution's state.json. */
export function readState(executionDir: string): {
  runs: { runId: string; status: string; codons: { codonId: string; status: string }[] }[];
} {
  return JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
}
