import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isPidAlive, processStartTime } from '@hankweave/state';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deadPid,
  loopEntry,
  makeExecution,
  makeWorld,
  pipelineEntry,
  reap,
  type SessionsWorld,
  startRuntimeChild,
  writeRuntimeLock,
} from '../../test/sessions-world.js';
import { killExecution } from './kill-execution.js';

const running = { status: 'running' as const, completed_at: null };

describe('killExecution()', () => {
  let world: SessionsWorld;
  let child: ChildProcess | undefined;
  beforeEach(async () => {
    world = await makeWorld();
  });
  afterEach(async () => {
    reap(child);
    child = undefined;
    await world.temp.cleanup();
  });

  /** A running pipeline (and a running loop in it) whose runtime is a real child holding the lock. */
  async function runningSession(
    options: { ignoreTerm?: boolean; lockPid?: number; lockStartTime?: string } = {},
  ) {
    const runtime = await startRuntimeChild(options);
    child = runtime;
    const executionDir = await makeExecution(world, 'exec-a');
    await writeRuntimeLock(executionDir, options.lockPid ?? runtime.pid, options.lockStartTime);
    await world.registry.register(
      'pipeline-exec-a',
      pipelineEntry({ ...running, pid: runtime.pid, execution_dir: executionDir }),
    );
    await world.registry.register(
      'loop-exec-a-polish',
      loopEntry('pipeline-exec-a', { ...running, pid: runtime.pid, execution_dir: executionDir }),
    );
    return { runtime, executionDir };
  }

  it('stops the runtime with SIGTERM and marks the session and its loops killed', async () => {
    const { runtime } = await runningSession();
    const exited = once(runtime, 'exit');

    const result = await killExecution('pipeline-exec-a', {
      projectDir: world.dir,
      graceMs: 5_000,
    });

    expect(result).toMatchObject({ key: 'pipeline-exec-a', outcome: 'stopped', pid: runtime.pid });
    expect(result.waitedMs).toBeLessThan(5_000);
    expect((await exited)[1]).toBe('SIGTERM');
    const { sessions } = await world.registry.read();
    expect(sessions['pipeline-exec-a']).toMatchObject({ status: 'killed' });
    expect(sessions['pipeline-exec-a']?.killed_at).toEqual(expect.any(String));
    expect(sessions['loop-exec-a-polish']).toMatchObject({ status: 'killed' });
  });

  it('stops the pipeline runtime when asked to kill one of its loops', async () => {
    const { runtime } = await runningSession();

    const result = await killExecution('loop-exec-a-polish', { projectDir: world.dir });

    expect(result).toMatchObject({ key: 'loop-exec-a-polish', outcome: 'stopped' });
    expect(isPidAlive(runtime.pid)).toBe(false);
    const { sessions } = await world.registry.read();
    expect(sessions['pipeline-exec-a']?.status).toBe('killed');
  });

  it('sends SIGKILL after the grace period when SIGTERM is ignored', async () => {
    const { runtime } = await runningSession({ ignoreTerm: true });
    const exited = once(runtime, 'exit');

    const result = await killExecution('pipeline-exec-a', { projectDir: world.dir, graceMs: 300 });

    expect(result).toMatchObject({ outcome: 'forced', pid: runtime.pid });
    expect(result.waitedMs).toBeGreaterThanOrEqual(300);
    expect((await exited)[1]).toBe('SIGKILL');
    const entry = (await world.registry.read()).sessions['pipeline-exec-a'];
    expect(entry).toMatchObject({ status: 'killed' });
    expect(entry?.note).toMatch(/^forced after 0\.3s/);
  });

  it('answers not-running, and signals nothing, for a session that has ended', async () => {
    const { runtime } = await runningSession();
    await world.registry.setStatus('pipeline-exec-a', 'completed');

    const result = await killExecution('pipeline-exec-a', { projectDir: world.dir });

    expect(result).toEqual({
      key: 'pipeline-exec-a',
      outcome: 'not-running',
      pid: runtime.pid,
      waitedMs: 0,
    });
    expect(isPidAlive(runtime.pid)).toBe(true);
  });

  it('keeps the ending a runtime wrote itself before releasing its lock', async () => {
    const { executionDir } = await runningSession();
    reap(child);
    // A runtime-like child: on SIGTERM it records `killed` with its own note, releases
    // runtime.lock, then lingers a moment before exiting (as a runtime closing its journal).
    const registryFile = join(world.dir, '.claude', 'loop-sessions.json');
    const lockFile = join(executionDir, '.hankweave', 'runtime.lock');
    const onTerm = `
      const fs = require('node:fs');
      process.on('SIGTERM', () => {
        const data = JSON.parse(fs.readFileSync(${JSON.stringify(registryFile)}, 'utf8'));
        for (const key of Object.keys(data.sessions))
          Object.assign(data.sessions[key], { status: 'killed', killed_at: new Date().toISOString(), note: 'runtime stopped' });
        fs.writeFileSync(${JSON.stringify(`${registryFile}.tmp`)}, JSON.stringify(data));
        fs.renameSync(${JSON.stringify(`${registryFile}.tmp`)}, ${JSON.stringify(registryFile)});
        fs.unlinkSync(${JSON.stringify(lockFile)});
        setTimeout(() => process.exit(0), 2000);
      });
      setInterval(() => {}, 1e9);
      console.log('ready');`;
    const runtime = spawn(process.execPath, ['-e', onTerm], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = runtime;
    await once(runtime.stdout, 'data');
    const pid = runtime.pid ?? 0;
    await writeRuntimeLock(executionDir, pid);
    await world.registry.patch('pipeline-exec-a', { pid });

    const result = await killExecution('pipeline-exec-a', {
      projectDir: world.dir,
      graceMs: 5_000,
    });

    expect(result.outcome).toBe('stopped');
    expect(result.waitedMs).toBeLessThan(2_000);
    const entry = (await world.registry.read()).sessions['pipeline-exec-a'];
    expect(entry).toMatchObject({ status: 'killed', note: 'runtime stopped' });
  });

  it('refuses when the live pid does not hold the execution lock (a reused pid)', async () => {
    const { runtime } = await runningSession({ lockPid: await deadPid() });

    await expect(killExecution('pipeline-exec-a', { projectDir: world.dir })).rejects.toMatchObject(
      {
        code: 'RUNTIME_INVALID_OPTION',
        details: { reason: 'pid-not-owner', pid: runtime.pid },
      },
    );
    expect(isPidAlive(runtime.pid)).toBe(true);
    expect((await world.registry.read()).sessions['pipeline-exec-a']?.status).toBe('running');
  });

  // Issue 31: the runtime died (SIGKILL, a reboot) and its pid went to an unrelated process. The
  // lock still names the pid, with the dead runtime's start time: that process is never signalled.
  it('never signals a live process that reused the pid of a dead runtime, and fixes the record', async () => {
    const { runtime } = await runningSession({ lockStartTime: 'the-dead-runtime:12345' });

    const result = await killExecution('pipeline-exec-a', { projectDir: world.dir, graceMs: 500 });

    expect(result).toMatchObject({ outcome: 'already-dead', pid: runtime.pid, waitedMs: 0 });
    expect(isPidAlive(runtime.pid)).toBe(true);
    const entry = (await world.registry.read()).sessions['pipeline-exec-a'];
    expect(entry?.status).toBe('unknown_termination');
    expect(entry?.note).toContain('now belongs to another process, which was not signalled');
  });

  it('stops the runtime whose start time the lock records', async () => {
    const { runtime } = await runningSession({ lockStartTime: 'later' });
    await writeRuntimeLock(
      join(world.dir, 'exec-a'),
      runtime.pid,
      processStartTime(runtime.pid) ?? 'unknown',
    );

    const result = await killExecution('pipeline-exec-a', { projectDir: world.dir });

    expect(result.outcome).toBe('stopped');
    expect(isPidAlive(runtime.pid)).toBe(false);
  });

  it('refuses a session that runs on another host', async () => {
    await world.registry.register(
      'pipeline-remote',
      pipelineEntry({ ...running, pid: process.pid, hostname: `not-${hostname()}` }),
    );

    await expect(killExecution('pipeline-remote', { projectDir: world.dir })).rejects.toMatchObject(
      {
        code: 'RUNTIME_INVALID_OPTION',
        details: { reason: 'other-host' },
      },
    );
  });

  it('marks a session whose process is gone unknown_termination', async () => {
    const pid = await deadPid();
    await world.registry.register('pipeline-gone', pipelineEntry({ ...running, pid }));

    const result = await killExecution('pipeline-gone', { projectDir: world.dir });

    expect(result).toEqual({ key: 'pipeline-gone', outcome: 'already-dead', pid, waitedMs: 0 });
    const entry = (await world.registry.read()).sessions['pipeline-gone'];
    expect(entry?.status).toBe('unknown_termination');
    expect(entry?.note).toContain(`process ${pid}`);
  });

  it('rejects a key that is not in the registry', async () => {
    await expect(killExecution('pipeline-nope', { projectDir: world.dir })).rejects.toMatchObject({
      code: 'RUNTIME_INVALID_OPTION',
      details: { reason: 'unknown-session', key: 'pipeline-nope' },
    });
  });
});
