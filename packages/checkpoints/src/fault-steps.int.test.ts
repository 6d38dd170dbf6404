import { cpSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFaultyFs, type FaultyFs } from '@hankweave/durable-io/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupExecutions, type Execution, makeExecution } from '../test/helpers.js';
import { CheckpointEngine } from './checkpoint-engine.js';
import { CHECKPOINT_ERROR_CODES, CheckpointError } from './errors.js';
import { runNativeGit } from './testing.js';
import type { CheckpointInput } from './types.js';

// checkpoint() and restore() under the fault-injecting fs at every step (k = 0, 1, 2, ... until a
// run completes without reaching the fault). A crash: reopened with the real fs, the repository
// passes native `git fsck`, HEAD is at the old or the new commit, every earlier checkpoint reads
// back byte for byte, and a new checkpoint records exactly what is on disk. An I/O error: the
// call fails with a coded error, and the same engine checkpoints and restores on.

const WHEN = new Date('2025-01-04T12:00:00.000Z');
/** Copies not yet removed (a failing step leaves its copy; afterAll removes it). */
const made: string[] = [];
/** Steps exercised per scenario and mode, printed for RELIABILITY.md. */
const report: string[] = [];

afterAll(() => {
  cleanupExecutions();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`[checkpoint faults] ${report.join('; ')}\n`);
});

const TRACKED_V1 = ['a.txt', 'd/b.txt', 'd/e/c.txt', 'run.sh', 'link'];
const TRACKED_V2 = ['a.txt', 'd/e/c.txt', 'run.sh', 'link', 'n/new.txt', 'n/m/deep.txt'];

const cpInput = (
  files: readonly string[],
  overrides: Partial<CheckpointInput> = {},
): CheckpointInput => ({
  type: 'completed',
  codonId: 'probe',
  codonName: 'Probe',
  runId: 'run1',
  durationMs: 5,
  files,
  timestamp: WHEN,
  ...overrides,
});

/** Every file of `files` as it is on disk (a symlink as its target). */
const onDisk = (exec: string, files: readonly string[]): Map<string, string> => {
  const out = new Map<string, string>();
  for (const path of files) {
    const full = join(exec, 'agentRoot', path);
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(full);
    } catch {
      continue;
    }
    out.set(
      path,
      stat.isSymbolicLink() ? readlinkSync(full, 'utf8') : readFileSync(full, 'latin1'),
    );
  }
  return out;
};

/** A checkpoint's files as the engine reads them back. */
const inCheckpoint = async (
  engine: CheckpointEngine,
  sha: string,
): Promise<Map<string, string>> => {
  const out = new Map<string, string>();
  for (const file of await engine.files(sha)) {
    out.set(file.path, (await engine.readFile(sha, file.path)).toString('latin1'));
  }
  return out;
};

interface Template {
  /** An execution directory to copy for each run. */
  exec: string;
  /** Earlier checkpoints and their contents. */
  checkpoints: Map<string, Map<string, string>>;
  /** HEAD before the operation. */
  head: string;
}

/** Two checkpoints on run1 (v1, then v2 with every kind of change), HEAD at v2. */
const buildTemplate = async (x: Execution): Promise<Template> => {
  const engine = await x.open();
  x.write('a.txt', 'alpha v1\n');
  x.write('d/b.txt', 'beta\n');
  x.write('d/e/c.txt', 'gamma\n');
  x.write('run.sh', 'echo 1\n', 0o755);
  x.link('link', 'a.txt');
  const v1 = await engine.checkpoint(cpInput(TRACKED_V1, { codonId: 'v1' }));
  x.write('a.txt', 'alpha v2\n');
  x.remove('d/b.txt');
  x.write('run.sh', 'echo 2\n', 0o644);
  x.write('n/new.txt', 'new\n');
  x.write('n/m/deep.txt', 'deep\n');
  x.link('link', 'd/e/c.txt');
  const v2 = await engine.checkpoint(cpInput(TRACKED_V2, { codonId: 'v2' }));
  const checkpoints = new Map([
    [v1.sha, await inCheckpoint(engine, v1.sha)],
    [v2.sha, await inCheckpoint(engine, v2.sha)],
  ]);
  await engine.close();
  return { exec: x.exec, checkpoints, head: v2.sha };
};

/** A fresh copy of the template's execution directory. */
const copyOf = (template: Template): string => {
  const exec = mkdtempSync(join(tmpdir(), 'hankweave-cp-faults-'));
  made.push(exec);
  cpSync(template.exec, exec, { recursive: true, verbatimSymlinks: true });
  return exec;
};

interface Scenario {
  name: string;
  /** Changes the copied work tree before the engine opens (real fs). */
  prepare(exec: string): void;
  /** The operation under test; resolves with the sha HEAD points at afterwards. */
  run(engine: CheckpointEngine, template: Template): Promise<string>;
  /** The files the next checkpoint tracks. */
  files: readonly string[];
}

const SCENARIOS: Scenario[] = [
  {
    name: 'checkpoint() of changed files on a new branch',
    prepare: (exec) => {
      const root = join(exec, 'agentRoot');
      cpSync(join(root, 'd/e/c.txt'), join(root, 'n/copy.txt'));
      rmSync(join(root, 'n/m'), { recursive: true });
      cpSync(join(root, 'a.txt'), join(root, 'z.txt'));
    },
    run: async (engine) =>
      (
        await engine.checkpoint(
          cpInput(['a.txt', 'n/copy.txt', 'z.txt', 'link'], { runId: 'run2', codonId: 'k' }),
        )
      ).sha,
    files: ['a.txt', 'n/copy.txt', 'z.txt', 'link'],
  },
  {
    name: 'checkpoint() with nothing changed',
    prepare: () => {},
    run: async (engine) => (await engine.checkpoint(cpInput(TRACKED_V2, { codonId: 'same' }))).sha,
    files: TRACKED_V2,
  },
  {
    name: 'restore() of the earlier checkpoint',
    prepare: () => {},
    run: async (engine, template) => {
      const [v1] = [...template.checkpoints.keys()];
      return (await engine.restore(v1 as string)).sha;
    },
    files: TRACKED_V1,
  },
];

const expectCoded = (error: unknown): void => {
  expect(CheckpointError.is(error), `not a CheckpointError: ${String(error)}`).toBe(true);
  expect(CHECKPOINT_ERROR_CODES).toContain((error as CheckpointError).code);
};

const fsck = (exec: string): void => {
  const result = runNativeGit(exec, ['fsck', '--full', '--strict', '--no-dangling'], {
    allowFailure: true,
  });
  expect(result.status, `git fsck: ${result.stdout}${result.stderr}`).toBe(0);
  expect(`${result.stdout}${result.stderr}`).not.toMatch(/error|warning|missing|broken|corrupt/i);
};

/** The invariants after a run, on `engine` (reopened or the same): see the file comment. */
const checkRepository = async (
  exec: string,
  engine: CheckpointEngine,
  template: Template,
  scenario: Scenario,
  next: string,
): Promise<void> => {
  fsck(exec);
  // git fsck has checked that HEAD names a valid commit; the engine reads the same file.
  const head = (await engine.head()).sha;
  expect([template.head, next]).toContain(head);
  for (const [sha, files] of template.checkpoints) {
    expect(await inCheckpoint(engine, sha), `checkpoint ${sha}`).toEqual(files);
  }
  // A new checkpoint records exactly what is on disk now (a restore may have been cut short).
  const after = await engine.checkpoint(
    cpInput(scenario.files, { codonId: 'after', runId: 'after', timestamp: undefined }),
  );
  expect(await inCheckpoint(engine, after.sha)).toEqual(onDisk(exec, scenario.files));
};

describe('CheckpointEngine under faults at every step', () => {
  let template: Template;
  beforeAll(async () => {
    template = await buildTemplate(makeExecution());
  });

  for (const scenario of SCENARIOS) {
    /** The sha the operation makes HEAD point at when it completes (a clean run). */
    const reference = async (): Promise<string> => {
      const exec = copyOf(template);
      scenario.prepare(exec);
      const engine = await CheckpointEngine.open({ executionDir: exec });
      const sha = await scenario.run(engine, template);
      await engine.close();
      return sha;
    };

    /**
     * Runs the operation with the fault at step k = 0, 1, 2, ... until a run completes without
     * reaching it; returns that k. Steps run four at a time (each in its own copy): most of a
     * step's time is native git and fsync, which overlap well.
     */
    const everyStep = async (
      fault: (step: number) => Parameters<FaultyFs['arm']>[0],
      check: (
        exec: string,
        engine: CheckpointEngine,
        next: string,
        outcome: { value: string } | { error: unknown },
      ) => Promise<void>,
    ): Promise<number> => {
      const next = await reference();
      const one = async (step: number): Promise<boolean> => {
        const exec = copyOf(template);
        scenario.prepare(exec);
        const fs = createFaultyFs({ trace: false });
        const engine = await CheckpointEngine.open({ executionDir: exec, fs });
        fs.arm(fault(step));
        const outcome = await scenario.run(engine, template).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        // A fault the operation did not reach must not fire in the checks.
        fs.disarm();
        await check(exec, engine, next, outcome);
        rmSync(exec, { recursive: true, force: true });
        if (!fs.faulted) expect(outcome).toEqual({ value: next });
        return fs.faulted;
      };
      for (let step = 0; step < 400; step += 4) {
        const faulted = await Promise.all([0, 1, 2, 3].map((offset) => one(step + offset)));
        const done = faulted.indexOf(false);
        if (done !== -1) {
          // Once a run gets past the last call, every later one does too.
          expect(faulted.slice(done).every((hit) => !hit)).toBe(true);
          return step + done;
        }
      }
      throw new Error(`${scenario.name} still reached the fault after 400 steps`);
    };

    it(`${scenario.name}: a crash at any step leaves a repository git accepts`, async () => {
      const steps = await everyStep(
        (step) => ({ failAt: 'any', after: step, mode: 'crash' }),
        async (exec, engine, next, outcome) => {
          if ('error' in outcome) expectCoded(outcome.error);
          await engine.close().catch(() => undefined);
          // No fsync for the checks' own checkpoint: its durability is not what is tested here.
          const reopened = await CheckpointEngine.open({ executionDir: exec, fsync: false });
          await checkRepository(exec, reopened, template, scenario, next);
          await reopened.close();
        },
      );
      report.push(`${scenario.name}, crash: ${steps} steps`);
    }, 120_000);

    it(`${scenario.name}: ENOSPC at any step fails with a coded error, and the engine goes on`, async () => {
      const steps = await everyStep(
        (step) => ({ failAt: 'any', after: step, mode: 'throw', code: 'ENOSPC' }),
        async (exec, engine, next, outcome) => {
          if ('error' in outcome) expectCoded(outcome.error);
          await checkRepository(exec, engine, template, scenario, next);
          await engine.close();
        },
      );
      report.push(`${scenario.name}, ENOSPC: ${steps} steps`);
    }, 120_000);
  }

  it('open() creating the repository: a crash at any step leaves none or a whole one', async () => {
    let step = 0;
    for (; step < 200; step++) {
      const exec = mkdtempSync(join(tmpdir(), 'hankweave-cp-faults-'));
      made.push(exec);
      cpSync(join(template.exec, 'agentRoot'), join(exec, 'agentRoot'), {
        recursive: true,
        verbatimSymlinks: true,
      });
      const fs = createFaultyFs({ trace: false, failAt: 'any', after: step, mode: 'crash' });
      const opened = await CheckpointEngine.open({ executionDir: exec, fs }).then(
        (engine) => ({ engine }),
        (error: unknown) => ({ error }),
      );
      if ('error' in opened) expectCoded(opened.error);
      else await opened.engine.close().catch(() => undefined);
      const engine = await CheckpointEngine.open({ executionDir: exec, fsync: false });
      fsck(exec);
      expect(await engine.list()).toEqual([]);
      const first = await engine.checkpoint(cpInput(TRACKED_V2, { timestamp: undefined }));
      expect(await inCheckpoint(engine, first.sha)).toEqual(onDisk(exec, TRACKED_V2));
      await engine.close();
      rmSync(exec, { recursive: true, force: true });
      if (!fs.faulted) break;
    }
    report.push(`open() creating the repository, crash: ${step} steps`);
    expect(step).toBeGreaterThan(10);
  }, 120_000);
});
