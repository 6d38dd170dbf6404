import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  atDepth,
  type ChildUnderTest,
  makeTempDir,
  spawnChild,
  type TempDir,
} from '@hankweave/durable-io/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { readState } from '../src/read/read-state.js';

// Real processes, real SIGKILLs: every transition whose flush() resolved must survive. 50 kills
// in CI, 200 in `pnpm test:long` (HANKWEAVE_TEST_DEPTH=long); STATE_KILL_COUNT sets any number.
const KILLS = Number(process.env.STATE_KILL_COUNT ?? atDepth({ short: 50, long: 200 }));
const LANES = Number(process.env.STATE_KILL_LANES ?? 2);
const CHILD = join(import.meta.dirname, 'kill-child.mjs');
const DIST = join(import.meta.dirname, '..', 'dist', 'index.js');

interface Outcome {
  runId?: string;
  ready?: boolean;
  flushesAfterReady?: number;
  previousPid?: number;
  /** The largest progress the child reported as flushed: [codon records, messages of the last]. */
  flushed?: [number, number];
  exit: { code: number | null; signal: NodeJS.Signals | null };
  stderr: string;
}

const compare = (a: [number, number], b: [number, number]): number => a[0] - b[0] || a[1] - b[1];

interface Spawned {
  child: ChildUnderTest;
  outcome: Outcome;
  /** Resolves once the child printed `loaded` (or exited without). */
  loaded: Promise<unknown>;
  /** Set by runToDeath: kills the child once the first flush after `ready` arrives. */
  killMidStream?: () => void;
}

/** Starts a child that loads its modules and waits for `go`. */
const startChild = (dir: string): Spawned => {
  // No guard from spawn: children wait for their predecessor first; runToDeath guards after `go`.
  const child = spawnChild(CHILD, [dir], { stdin: true, guardMs: 0 });
  const outcome: Outcome = { exit: { code: null, signal: null }, stderr: '' };
  const spawned: Spawned = {
    child,
    outcome,
    loaded: child.waitForLine((line) => line === 'loaded').catch(() => undefined),
  };
  child.onLine((line) => {
    const [kind, runId, a, b] = line.split(' ');
    if (kind === 'locked') outcome.previousPid = Number(runId);
    else if (kind === 'ready') outcome.ready = true;
    else if (kind === 'flushed') {
      outcome.runId = runId;
      const key: [number, number] = [Number(a), Number(b)];
      if (outcome.flushed === undefined || compare(key, outcome.flushed) > 0) outcome.flushed = key;
      if (outcome.ready) {
        outcome.flushesAfterReady = (outcome.flushesAfterReady ?? 0) + 1;
        if (outcome.flushesAfterReady === 1) spawned.killMidStream?.();
      }
    }
  });
  return spawned;
};

/** Lets a loaded child go and SIGKILLs it: early ones while they start, others mid-stream. */
const runToDeath = async (spawned: Spawned, early: boolean): Promise<Outcome> => {
  const { child, outcome } = spawned;
  await spawned.loaded;
  if (early) void child.kill(Math.random() * 40);
  // Kill 5-60 ms into the stream of flushes: transitions keep arriving, saves are in flight.
  else spawned.killMidStream = () => void child.kill(5 + Math.random() * 55);
  child.send('go\n');
  // A child that stops printing (a bug) is killed after a while; the exit assertion then fails.
  const guard = setTimeout(() => child.process.kill('SIGKILL'), 20_000);
  const exit = await child.exited;
  clearTimeout(guard);
  outcome.exit = { code: exit.code, signal: exit.signal };
  outcome.stderr = exit.stderr;
  return outcome;
};

/** One lane: one execution directory, children killed one after another. */
const lane = async (
  dir: string,
  kills: number,
  stats: { kills: number; verified: number; midStream: number },
) => {
  // Pids the next child may find in runtime.lock: the last child that printed `locked`, plus any
  // killed after it before printing (it may have taken the lock, or removed it mid-takeover: 0).
  let candidates = new Set([0]);
  let lastRunWithFlush: string | undefined;
  let next = startChild(dir);
  for (let index = 0; index < kills; index++) {
    const early = index % 7 === 3;
    const current = next;
    if (index + 1 < kills) next = startChild(dir);
    const outcome = await runToDeath(current, early);
    const pid = current.child.process.pid ?? -1;
    stats.kills++;
    expect(outcome.exit, outcome.stderr).toEqual({ code: null, signal: 'SIGKILL' });
    if (outcome.previousPid !== undefined) {
      // The lock of a SIGKILLed child is taken over, naming it.
      expect([...candidates]).toContain(outcome.previousPid);
      candidates = new Set([pid]);
    } else {
      candidates.add(pid).add(0);
    }

    // readState validates (schema, currentRunId) and reports every file it had to reject.
    const read = await readState(dir);
    expect(read.recovery.rejected.filter((file) => file.problem !== 'missing')).toEqual([]);
    expect(read.validation.valid).toBe(true);
    // A SIGKILL never leaves a damaged state.json: no fallback to the backup, ever.
    if (lastRunWithFlush !== undefined) expect(read.source).toBe('primary');
    if (outcome.flushed !== undefined) {
      const run = read.state.runs.find((candidate) => candidate.runId === outcome.runId);
      expect(run, `run ${outcome.runId} flushed but missing`).toBeDefined();
      const last = run?.codons.at(-1);
      const messages =
        last === undefined
          ? -1
          : ['completed', 'failed', 'skipped'].includes(last.status)
            ? 1e9
            : ((last as { assistantMessageCount?: number }).assistantMessageCount ?? -1);
      const onDisk: [number, number] = [run?.codons.length ?? 0, messages];
      expect(
        compare(onDisk, outcome.flushed),
        `${outcome.runId}: disk ${onDisk} < flushed ${outcome.flushed}`,
      ).toBeGreaterThanOrEqual(0);
      lastRunWithFlush = outcome.runId;
      stats.verified++;
      if ((outcome.flushesAfterReady ?? 0) > 0) stats.midStream++;
    }
  }
};

describe('StateStore under SIGKILL', () => {
  const roots: TempDir[] = [];
  afterAll(async () => {
    if (!process.env.STATE_KILL_KEEP) await Promise.all(roots.map((root) => root.cleanup()));
  });

  it(`keeps every flushed transition across ${KILLS} kills of real processes`, async () => {
    expect(existsSync(DIST), 'build the package first: pnpm exec tsup').toBe(true);
    const started = Date.now();
    const stats = { kills: 0, verified: 0, midStream: 0 };
    await Promise.all(
      Array.from({ length: LANES }, async (_, index) => {
        const root = await makeTempDir('state-kill-');
        roots.push(root);
        const dir = join(root.path, '.hankweave');
        await mkdir(dir);
        const share = Math.floor(KILLS / LANES) + (index < KILLS % LANES ? 1 : 0);
        await lane(dir, share, stats);
      }),
    );
    expect(stats.kills).toBe(KILLS);
    // Kills must land while flushes stream in, or the test proves nothing.
    expect(stats.midStream).toBeGreaterThan(KILLS * 0.7);
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `kill test: ${stats.kills} kills (${LANES} lanes), ${stats.verified} checked against a flushed state, ${stats.midStream} killed mid-stream, ${seconds.toFixed(1)} s\n`,
    );
  }, 180_000);
});
