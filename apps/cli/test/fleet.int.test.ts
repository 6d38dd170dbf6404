import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { type Answer, send } from '@hankweave/dashboard/testing';
import { EventJournal } from '@hankweave/journal';
import { PgEventStorage } from '@hankweave/postgres';
import { type PostgresServer, startPostgres } from '@hankweave/postgres/testing';
import { type JobResult, type JobSummary, listJobs, type WorkerEvent } from '@hankweave/queue';
import { type RedisServer, startRedis } from '@hankweave/queue/testing';
import { isPidAlive } from '@hankweave/state';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetExecutionJson } from '../src/fleet/fleet-sessions.js';
import { BIN, CLI_ROOT, createSandbox, runCli, type Sandbox, startCli } from './cli-harness.js';

/** A `hankweave worker` process and the NDJSON events it printed. */
interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  events: WorkerEvent[];
  exited: Promise<unknown>;
}

type StateFile = {
  runs: {
    status: string;
    serverPid: number;
    startTime: string;
    endTime?: string;
    codons: { codonId: string; status: string }[];
  }[];
};
const HELLO_CODONS = ['observe', 'summarize', 'polish-pass#0', 'polish-pass#1'];

// Real processes end to end: a throwaway redis-server and Postgres, `hankweave worker` processes
// of the built binary (copying every execution to Postgres), `hankweave submit`, the scripted
// model and the real Claude Code agent, offline.
describe('a fleet of hankweave workers', () => {
  let redis: RedisServer;
  let postgres: PostgresServer;
  let pool: pg.Pool;
  let sandbox: Sandbox;
  const queue = 'fleet';
  const workers: WorkerProcess[] = [];
  const baseDir = () => join(sandbox.root, 'shared');
  const locks = new LockWatch();

  const startWorker = (): WorkerProcess => {
    const child = spawn(
      process.execPath,
      [
        ...[BIN, 'worker', '--redis', redis.url, '--queue', queue, '--base', baseDir(), '--json'],
        ...['--postgres', postgres.url],
        ...['--lock-duration', '2s', '--stalled-interval', '1s', '--locked-retry', '1s'],
      ],
      { env: sandbox.env, cwd: CLI_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const worker: WorkerProcess = {
      child,
      pid: child.pid ?? 0,
      events: [],
      exited: new Promise((resolve) => child.on('exit', resolve)),
    };
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) worker.events.push(JSON.parse(line));
    });
    child.stderr?.resume();
    workers.push(worker);
    return worker;
  };
  const submit = async (hankDir: string) => {
    const result = await runCli(
      [
        ...['submit', hankDir, join(hankDir, 'data'), '--redis', redis.url, '--queue', queue],
        ...['--scripted-model', join(hankDir, 'model-script.json'), '--json'],
      ],
      { env: sandbox.env },
    );
    expect(result.stderr).toBe('');
    return (JSON.parse(result.stdout) as { jobId: string }).jobId;
  };
  const jobsOf = (ids: readonly string[]) =>
    listJobs(redis.url, { queueName: queue }).then((jobs) =>
      jobs.filter((job) => ids.includes(job.id)),
    );

  /** The ids of the events the workers copied to Postgres for one execution, in order. */
  const fleetJournalIds = async (executionDir: string): Promise<string[]> => {
    const journal = new EventJournal(
      new PgEventStorage({ pool, executionId: basename(executionDir) }),
    );
    await journal.initialize();
    const ids: string[] = [];
    for await (const event of journal.getAllEvents()) ids.push(event.id);
    await journal.close();
    return ids;
  };
  const fleetSessions = async (): Promise<FleetExecutionJson[]> => {
    const listed = await runCli(['sessions', '--postgres', postgres.url, '--json'], {
      env: sandbox.env,
    });
    expect(listed.stderr).toBe('');
    return JSON.parse(listed.stdout);
  };

  /** Submits a copy of the example whose summarize codon is slow; resolves once one of `among` runs it. */
  const submitSlow = async (name: string, among: readonly WorkerProcess[]) => {
    const hankDir = sandbox.copyExample(name).hankDir;
    slowDownSummarize(join(hankDir, 'model-script.json'));
    const jobId = await submit(hankDir);
    const inFlight = (worker: WorkerProcess) =>
      worker.events.some(
        (event) =>
          event.type === 'codon.started' && event.jobId === jobId && event.codonId === 'summarize',
      );
    await waitFor(() => among.some(inFlight), 30_000);
    return { jobId, worker: among.find(inFlight) as WorkerProcess };
  };

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    pool = new pg.Pool({ connectionString: postgres.url });
    sandbox = createSandbox();
    locks.start(() => baseDir());
  });
  afterAll(async () => {
    locks.stop();
    for (const worker of workers) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    await redis?.stop();
    await pool?.end();
    await postgres?.stop();
    sandbox?.cleanup();
  });

  it('drains the submitted hanks: every job completes, every codon once', async () => {
    const fleet = [startWorker(), startWorker()];
    const hanks = ['a', 'b', 'c', 'd'].map((name) => sandbox.copyExample(`hello-${name}`).hankDir);
    const ids = await Promise.all(hanks.map(submit));
    const jobs = await waitForJobs(() => jobsOf(ids), ids.length);
    expect(jobs.map((job) => job.status)).toEqual(ids.map(() => 'completed'));
    for (const job of jobs) {
      const result = job.result as JobResult;
      expect(result.executionDir).toBe(join(baseDir(), 'jobs', job.id));
      expect(completionsOf(result.executionDir)).toEqual(
        Object.fromEntries(HELLO_CODONS.map((id) => [id, 1])),
      );
    }
    // Both processes took work (each runs one job at a time).
    const ran = new Set(jobs.map((job) => job.worker));
    expect(ran.size).toBe(fleet.length);

    // Every execution is in the fleet's Postgres: its journal, event for event, and its state.
    const listed = await fleetSessions();
    for (const job of jobs) {
      const { executionDir, cost } = job.result as JobResult;
      expect(await fleetJournalIds(executionDir)).toEqual(journalIds(executionDir));
      const row = listed.find((entry) => entry.executionId === basename(executionDir));
      expect(row).toMatchObject({
        status: 'completed',
        executionDir,
        worker: job.worker,
        jobId: job.id,
        hankName: 'hello-hank',
        runCount: readState(executionDir).runs.length,
      });
      expect(row?.totalCost).toBeCloseTo(cost, 10);
    }
  }, 150_000);

  it('finishes a job on another worker after its worker is killed mid-codon', async () => {
    const { jobId, worker: victim } = await submitSlow('hello-slow', workers);
    const executionDir = join(baseDir(), 'jobs', jobId);
    // Every event acknowledged so far (it is in the journal file) must survive the kill.
    const before = journalIds(executionDir);
    expect(before.length).toBeGreaterThan(0);
    victim.child.kill('SIGKILL');
    await victim.exited;

    const [job] = await waitForJobs(() => jobsOf([jobId]), 1, 120_000);
    expect(job?.status).toBe('completed');
    const result = job?.result as JobResult;
    expect(result.worker.endsWith(`:${victim.pid}`)).toBe(false);
    expect(job?.attemptsStarted).toBeGreaterThan(1);

    // Nothing completed twice; the codon in flight has its crashed record, then its completion.
    expect(completionsOf(executionDir)).toEqual(
      Object.fromEntries(HELLO_CODONS.map((id) => [id, 1])),
    );
    const state = readState(executionDir);
    const summarize = state.runs
      .slice()
      .reverse()
      .flatMap((run) => run.codons.filter((codon) => codon.codonId === 'summarize'))
      .map((codon) => codon.status);
    expect(summarize).toEqual(['failed', 'completed']);
    expect(state.runs.map((run) => run.status)).toContain('crashed');

    // No acknowledged event lost: the journal still holds them, first and in order.
    expect(journalIds(executionDir).slice(0, before.length)).toEqual(before);
    // The fleet's copy of the journal is whole too: what the dead worker had not copied yet was
    // copied by the survivor, and nothing twice.
    expect(await fleetJournalIds(executionDir)).toEqual(journalIds(executionDir));
    const [row] = (await fleetSessions()).filter(
      (entry) => entry.executionId === basename(executionDir),
    );
    expect(row).toMatchObject({ status: 'completed', worker: result.worker });

    // runtime.lock passed from the dead worker to the survivor, never to two live processes.
    expect(locks.violations).toEqual([]);
    expect(locks.holders(executionDir)).toEqual([victim.pid, expect.any(Number)]);
    expect(locks.holders(executionDir)[1]).not.toBe(victim.pid);
  }, 150_000);

  it('hands a running job back on SIGTERM, and another worker completes it', async () => {
    startWorker();
    const alive = workers.filter((worker) => worker.child.exitCode === null);
    expect(alive.length).toBeGreaterThanOrEqual(2);
    const { jobId, worker: stopped } = await submitSlow('hello-stopped', alive);
    stopped.child.kill('SIGTERM');
    expect(await stopped.exited).toBe(0);
    expect(stopped.events.find((event) => event.type === 'job.delayed')).toMatchObject({
      jobId,
      reason: 'shutdown',
    });
    expect(stopped.events.at(-1)?.type).toBe('worker.closed');

    const [job] = await waitForJobs(() => jobsOf([jobId]), 1, 120_000);
    expect(job?.status).toBe('completed');
    expect(job?.worker?.endsWith(`:${stopped.pid}`)).toBe(false);
    const executionDir = join(baseDir(), 'jobs', jobId);
    expect(completionsOf(executionDir)).toEqual(
      Object.fromEntries(HELLO_CODONS.map((id) => [id, 1])),
    );
    // The stopped run ended (it did not crash) before the next one started: no overlap.
    const runs = readState(executionDir).runs.slice().reverse();
    expect(runs.map((run) => run.status)).not.toContain('crashed');
    const stoppedRun = runs.findIndex((run) => run.serverPid === stopped.pid);
    const next = runs[stoppedRun + 1];
    expect(next?.serverPid).not.toBe(stopped.pid);
    expect(Date.parse(runs[stoppedRun]?.endTime ?? '')).toBeLessThanOrEqual(
      Date.parse(next?.startTime ?? ''),
    );
    expect(locks.violations).toEqual([]);
  }, 150_000);

  it('lists the jobs and reports refusals as CLI errors with a next step', async () => {
    const cli = (...args: string[]) => runCli(args, { env: sandbox.env });
    const listed = await cli('jobs', '--redis', redis.url, '--queue', queue);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+STATUS\s+HANK\s+PROGRESS\s+COST\s+WORKER/);
    expect(listed.stdout).toMatch(/completed\s+hello-hank\s+4\/4 codons\s+\$0\.\d{4}/);

    const bad = sandbox.copyExample('hello-bad').hankDir;
    writeFileSync(join(bad, 'hank.json'), JSON.stringify({ meta: { name: 'bad' }, hank: [] }));
    const refused = await cli('submit', bad, join(bad, 'data'), '--redis', redis.url);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^Error: /);

    const unreachable = await cli('jobs', '--redis', 'redis://127.0.0.1:1');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Redis at redis://127.0.0.1:1 does not answer');
    expect(unreachable.stderr).toMatch(/→ Start Redis there \(`redis-server`/);

    const unknown = await cli('jobs', 'cancel', 'no-such-job', '--redis', redis.url);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No job no-such-job in queue hankweave');
  }, 150_000);

  it('shows the fleet in `hankweave ui --postgres`, from the database when the files are elsewhere', async () => {
    const empty = join(sandbox.root, 'not-the-shared-storage');
    mkdirSync(empty, { recursive: true });
    const ui = startCli(['ui', '--base', empty, '--postgres', postgres.url, '--json'], sandbox.env);
    try {
      await ui.waitFor(/"token"/);
      const printed = JSON.parse(ui.output()) as { url: string; token: string };
      const origin = new URL(printed.url).origin;
      const get = (path: string): Promise<Answer> =>
        send(origin, path, { headers: { authorization: `Bearer ${printed.token}` } });
      type Summary = { id: string; status: string; fleet?: { worker?: string; files: boolean } };

      // Every mirrored execution is listed; their directories are readable here (same paths).
      const mirrored = await fleetSessions();
      const table = await runCli(['sessions', '--postgres', postgres.url], { env: sandbox.env });
      expect(table.stdout).toMatch(/^EXECUTION\s+STATUS\s+HANK\s+COST\s+RUNS\s+WORKER\s+UPDATED\n/);
      for (const row of mirrored) {
        expect(table.stdout).toContain(row.executionId);
        expect(table.stdout).toContain(`  ${row.executionDir}\n`);
      }
      const list = (await get('/api/executions?limit=1000')).json<{ executions: Summary[] }>();
      expect(list.executions.map((row) => row.id).sort()).toEqual(
        mirrored.map((row) => row.executionId).sort(),
      );
      for (const row of list.executions) expect(row.fleet?.files).toBe(true);

      // One execution's directory moves out of reach: it is read from the database instead.
      const chosen = mirrored.find((row) => row.status === 'completed') as FleetExecutionJson;
      const dir = chosen.executionDir as string;
      const state = readState(dir);
      const events = journalIds(dir);
      renameSync(dir, `${dir}.elsewhere`);
      try {
        const detail = await get(`/api/executions/${chosen.executionId}`);
        expect(detail.status).toBe(200);
        const body = detail.json<{ summary: Summary; bars: unknown[] }>();
        expect(body.summary).toMatchObject({
          status: 'completed',
          fleet: { worker: chosen.worker, files: false },
        });
        expect(body.bars).toHaveLength(state.runs.flatMap((run) => run.codons).length);
        const page = await get(`/api/executions/${chosen.executionId}/events?limit=1000`);
        const journal = page.json<{ events: { id: string }[]; total: number }>();
        expect(journal.total).toBe(events.length);
        expect(journal.events.map((event) => event.id)).toEqual(events.slice(0, 1000));
        const checkpoints = await get(`/api/executions/${chosen.executionId}/checkpoints`);
        expect(checkpoints.status).toBe(404);
        expect(checkpoints.json()).toMatchObject({ error: { code: 'EXECUTION_FILES_ELSEWHERE' } });
      } finally {
        renameSync(`${dir}.elsewhere`, dir);
      }
    } finally {
      expect(await ui.stop('SIGINT')).toBe(0);
    }
  }, 90_000);

  it('refuses a Postgres that does not answer, or a URL that is not one, with what to do', async () => {
    const cli = (...args: string[]) => runCli(args, { env: sandbox.env });
    const unreachable = await cli('sessions', '--postgres', 'postgres://hw:secret@127.0.0.1:1/db');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(
      'Postgres at postgres://hw:***@127.0.0.1:1/db does not answer',
    );
    expect(unreachable.stderr).not.toContain('secret');
    expect(unreachable.stderr).toMatch(/→ Start it/);
    const notUrl = await cli('worker', '--redis', redis.url, '--postgres', 'mysql://x');
    expect(notUrl.code).toBe(1);
    expect(notUrl.stderr).toContain('is not a postgres:// or postgresql:// URL');
    const mixed = await cli('sessions', '--postgres', postgres.url, '--check');
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('does not go with --check');
  }, 90_000);
});

/** How many `completed` records each codon id has across every run of the execution. */
function completionsOf(executionDir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const run of readState(executionDir).runs)
    for (const codon of run.codons)
      if (codon.status === 'completed') counts[codon.codonId] = (counts[codon.codonId] ?? 0) + 1;
  return counts;
}

function readState(executionDir: string): StateFile {
  return JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
}

/** The ids of the journal's events, in file order. */
function journalIds(executionDir: string): string[] {
  const dir = join(executionDir, '.hankweave', 'events');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id);
}

/** The summarize codon first runs `sleep 4` in the agent's shell, so it is in flight long enough. */
function slowDownSummarize(scriptPath: string): void {
  const script = JSON.parse(readFileSync(scriptPath, 'utf8'));
  const summarize = script.conversations.find((c: { name: string }) => c.name === 'summarize');
  summarize.turns.unshift({
    content: [{ bash: { command: 'sleep 4', description: 'Think it over' } }],
    usage: { inputTokens: 2700, outputTokens: 20 },
  });
  writeFileSync(scriptPath, JSON.stringify(script, null, 2));
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls until `count` jobs have ended (completed or failed). */
async function waitForJobs(
  read: () => Promise<JobSummary[]>,
  count: number,
  timeoutMs = 120_000,
): Promise<JobSummary[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await read();
    const ended = jobs.filter((job) => job.status === 'completed' || job.status === 'failed');
    if (ended.length === count) return ended;
    if (Date.now() > deadline)
      throw new Error(`jobs not ended in ${timeoutMs} ms: ${JSON.stringify(jobs, null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Samples every execution's runtime.lock and records each change of holder. A change from pid P
 * to pid Q while P is alive and was never seen to release the lock (the file gone) would be two
 * processes holding one execution: a violation.
 */
class LockWatch {
  readonly violations: string[] = [];
  readonly #holders = new Map<string, number[]>();
  readonly #released = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  start(baseDir: () => string): void {
    this.#timer = setInterval(() => {
      const jobs = join(baseDir(), 'jobs');
      if (!existsSync(jobs)) return;
      for (const name of readdirSync(jobs)) this.#sample(join(jobs, name));
    }, 10);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** The distinct pids that held the execution's lock, in order. */
  holders(executionDir: string): number[] {
    return this.#holders.get(executionDir) ?? [];
  }

  #sample(executionDir: string): void {
    let pid: number;
    try {
      pid = JSON.parse(readFileSync(join(executionDir, '.hankweave', 'runtime.lock'), 'utf8')).pid;
    } catch {
      this.#released.add(executionDir); // No lock now (released, or being rewritten).
      return;
    }
    const seen = this.#holders.get(executionDir) ?? [];
    const previous = seen.at(-1);
    if (previous === pid) {
      this.#released.delete(executionDir);
      return;
    }
    if (previous !== undefined && isPidAlive(previous) && !this.#released.has(executionDir))
      this.violations.push(`${executionDir}: pid ${pid} holds it while ${previous} still did`);
    this.#released.delete(executionDir);
    seen.push(pid);
    this.#holders.set(executionDir, seen);
  }
}
