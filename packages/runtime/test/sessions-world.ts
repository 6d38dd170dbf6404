// Test support for the sessions tests (not exported): a project directory with a real registry,
// hand-made executions, runtime.lock files and real child processes standing in for runtimes.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { type SessionEntry, SessionRegistry } from '@hankweave/sessions';
import { executionLayout } from '../src/execution/layout.js';

export interface SessionsWorld {
  dir: string;
  registry: SessionRegistry;
  temp: TempDir;
}

export async function makeWorld(): Promise<SessionsWorld> {
  const temp = await makeTempDir('hankweave-sessions-');
  return { dir: temp.path, registry: new SessionRegistry(temp.path), temp };
}

const DAY = 24 * 3600 * 1000;
export const daysAgo = (days: number, now = Date.now()): string =>
  new Date(now - days * DAY).toISOString();

/** A pipeline entry as the runtime writes it, ended (completed) 10 days ago unless overridden. */
export function pipelineEntry(fields: Partial<SessionEntry> = {}): SessionEntry {
  return {
    type: 'pipeline',
    pipeline_file: '/hanks/hello/hank.json',
    started_at: daysAgo(10),
    project_path: '/base',
    status: 'completed',
    killed_at: null,
    completed_at: daysAgo(10),
    note: null,
    pid: 999_999,
    hostname: hostname(),
    hank_name: 'hello',
    data_path: '/data/hello',
    ...fields,
  };
}

/** A loop entry under `parent`. */
export function loopEntry(parent: string, fields: Partial<SessionEntry> = {}): SessionEntry {
  return pipelineEntry({
    type: 'loop',
    pipeline_file: null,
    loop_type: 'polish',
    max_iterations: 5,
    parent,
    hank_name: null,
    data_path: null,
    ...fields,
  });
}

/** The state.json of one run with one completed codon that cost `cost` dollars. */
export function stateWithCost(cost: number): unknown {
  const codon = {
    codonId: 'observe',
    startTime: '2025-01-04T12:00:00.000Z',
    status: 'completed',
    endTime: '2025-01-04T12:02:30.000Z',
    claudeSessionId: 's-1',
    claudeLogPath: 'runs/r1/observe-claude.log',
    exitCode: 0,
    finalCost: cost,
    finalTokens: { inputTokens: 1, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0 },
    resultMessageReceived: true,
    completionCheckpoint: 'def456',
    rigSetupCheckpoint: 'abc123',
    extensionCount: 0,
  };
  return {
    runs: [
      {
        runId: 'r1',
        runFolder: '/exec/.hankweave/runs/r1',
        gitBranch: 'run-r1',
        startingConditions: { type: 'fresh' },
        codons: [codon],
        status: 'completed',
        startTime: '2025-01-04T12:00:00.000Z',
        endTime: '2025-01-04T12:02:31.000Z',
      },
    ],
    currentRunId: 'r1',
    executionPlan: [
      { codon: { id: 'observe', name: 'Observe', model: 'sonnet' }, codonId: 'observe' },
    ],
  };
}

/**
 * An execution directory under the world: `.hankweave/execution-meta.json` (unless `meta` is
 * false), a state.json when `cost` is given, `bytes` of agent output, and a backup folder of
 * `backupBytes` when given.
 */
export async function makeExecution(
  world: SessionsWorld,
  name: string,
  options: {
    cost?: number;
    meta?: boolean;
    bytes?: number;
    backupBytes?: number;
    /** The meta's `created` record (default: hankweave made the directory and its layout). */
    created?: { directory: boolean; entries: string[] } | null;
  } = {},
): Promise<string> {
  const dir = join(world.dir, name);
  const layout = executionLayout(dir);
  await mkdir(layout.agentRoot, { recursive: true });
  await mkdir(layout.hankweaveDir, { recursive: true });
  const created =
    options.created === undefined
      ? { directory: true, entries: ['agentRoot', 'rigArchive', '.hankweave'] }
      : options.created;
  if (options.meta !== false)
    await writeFile(
      layout.metaFile,
      `${JSON.stringify({ hankPath: '/hanks/hello', ...(created ? { created } : {}) })}\n`,
    );
  if (options.cost !== undefined)
    await writeFile(layout.stateFile, JSON.stringify(stateWithCost(options.cost)));
  await writeFile(join(layout.agentRoot, 'notes.md'), 'x'.repeat(options.bytes ?? 1000));
  if (options.backupBytes !== undefined) {
    const backup = join(dir, '.hankweave.backup-2025-01-01T00-00-00');
    await mkdir(backup, { recursive: true });
    await writeFile(join(backup, 'state.json'), 'b'.repeat(options.backupBytes));
  }
  return dir;
}

/**
 * A runtime.lock naming `pid`, as the state package writes it; with `processStartTime`, as it
 * writes it since issue 31 (the holder's start time: a reused pid has another one).
 */
export async function writeRuntimeLock(
  executionDir: string,
  pid: number,
  processStartTime?: string,
): Promise<void> {
  const now = new Date().toISOString();
  await writeFile(
    executionLayout(executionDir).lockFile,
    JSON.stringify({
      pid,
      runId: null,
      startTime: now,
      lastHeartbeat: now,
      lockId: 'test',
      ...(processStartTime !== undefined && { processStartTime }),
    }),
  );
}

/**
 * A real process standing in for a runtime: it idles until killed. `ignoreTerm` makes it ignore
 * SIGTERM (so only SIGKILL stops it). Resolves once its signal handlers are installed.
 */
export async function startRuntimeChild(
  options: { ignoreTerm?: boolean } = {},
): Promise<ChildProcess & { pid: number }> {
  const code = `${options.ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1e9); console.log('ready');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout, 'data');
  if (child.pid === undefined) throw new Error('the child process did not start');
  return child as ChildProcess & { pid: number };
}

/** The pid of a process that has exited (and been reaped). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  const pid = child.pid;
  await once(child, 'exit');
  if (pid === undefined) throw new Error('the child process did not start');
  return pid;
}

/** Kills a child if it still runs (afterEach). */
export function reap(child: ChildProcess | undefined): void {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
