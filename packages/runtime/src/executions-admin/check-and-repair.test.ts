import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { sessionLayout } from '@hankweave/sessions';
import { isPidAlive } from '@hankweave/state';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  daysAgo,
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
import { executionLayout } from '../execution/layout.js';
import { checkAndRepairExecutions } from './check-and-repair.js';

const HOUR = 3600 * 1000;
const running = { status: 'running' as const, completed_at: null };

describe('checkAndRepairExecutions()', () => {
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

  it('finds nothing in a clean project', async () => {
    await world.registry.register('pipeline-done', pipelineEntry());

    const result = await checkAndRepairExecutions({ projectDir: world.dir });

    expect(result).toEqual({
      anomalies: { orphans: [], zombies: [], stale: [], staleLocks: [] },
      fixed: [],
      killed: [],
      errors: [],
    });
  });

  it('marks a zombie and its loops unknown_termination and reports its runtime.lock', async () => {
    const pid = await deadPid();
    const executionDir = await makeExecution(world, 'exec-z');
    await writeRuntimeLock(executionDir, pid);
    await world.registry.register(
      'pipeline-exec-z',
      pipelineEntry({ ...running, pid, execution_dir: executionDir, started_at: daysAgo(0) }),
    );
    await world.registry.register(
      'loop-exec-z-polish',
      loopEntry('pipeline-exec-z', { ...running, pid, started_at: daysAgo(0) }),
    );
    const now = new Date();

    const result = await checkAndRepairExecutions({ projectDir: world.dir, now });

    expect(result.anomalies.zombies.map((zombie) => zombie.key).sort()).toEqual([
      'loop-exec-z-polish',
      'pipeline-exec-z',
    ]);
    expect(result.fixed.sort()).toEqual(['loop-exec-z-polish', 'pipeline-exec-z']);
    expect(result.anomalies.staleLocks).toEqual([
      expect.objectContaining({ file: executionLayout(executionDir).lockFile }),
    ]);
    const { sessions } = await world.registry.read();
    expect(sessions['pipeline-exec-z']).toMatchObject({
      status: 'unknown_termination',
      note: `process ${pid} died without closing the session (found by sessions --check at ${now.toISOString()})`,
    });
    expect(sessions['loop-exec-z-polish']?.status).toBe('unknown_termination');
  });

  it('only reports when fix is false', async () => {
    const pid = await deadPid();
    await world.registry.register('pipeline-z', pipelineEntry({ ...running, pid }));

    const result = await checkAndRepairExecutions({ projectDir: world.dir, fix: false });

    expect(result.anomalies.zombies).toEqual([{ key: 'pipeline-z', pid }]);
    expect(result.fixed).toEqual([]);
    expect((await world.registry.read()).sessions['pipeline-z']?.status).toBe('running');
  });

  it('reports orphaned loop state files', async () => {
    const file = sessionLayout(world.dir).loopStateFile('ghost');
    await world.registry.register('pipeline-done', pipelineEntry());
    await writeFile(
      file,
      JSON.stringify({
        session: 'ghost',
        type: 'loop',
        started_at: daysAgo(1),
        status: 'completed',
        iteration: 1,
        history: [],
      }),
    );

    const result = await checkAndRepairExecutions({ projectDir: world.dir });

    expect(result.anomalies.orphans).toEqual([
      expect.objectContaining({ file, session: 'ghost', kind: 'loop-state' }),
    ]);
  });

  describe('a session running for more than 8 hours', () => {
    async function staleSession() {
      const runtime = await startRuntimeChild();
      child = runtime;
      const executionDir = await makeExecution(world, 'exec-s');
      await writeRuntimeLock(executionDir, runtime.pid);
      const started = new Date(Date.now() - 9 * HOUR).toISOString();
      await world.registry.register(
        'pipeline-exec-s',
        pipelineEntry({
          ...running,
          pid: runtime.pid,
          execution_dir: executionDir,
          started_at: started,
        }),
      );
      await world.registry.register(
        'loop-exec-s-polish',
        loopEntry('pipeline-exec-s', { ...running, pid: runtime.pid, started_at: started }),
      );
      return runtime;
    }

    it('is killed (once, through its pipeline) when the caller agrees', async () => {
      const runtime = await staleSession();
      const asked: string[] = [];

      const result = await checkAndRepairExecutions({
        projectDir: world.dir,
        killStale: (key) => {
          asked.push(key);
          return true;
        },
      });

      expect(asked).toEqual(['pipeline-exec-s']);
      expect(result.anomalies.stale.map((stale) => stale.level)).toEqual(['kill', 'kill']);
      expect(result.killed.sort()).toEqual(['loop-exec-s-polish', 'pipeline-exec-s']);
      expect(isPidAlive(runtime.pid)).toBe(false);
      expect((await world.registry.read()).sessions['pipeline-exec-s']?.status).toBe('killed');
    });

    // Issue 31: `sessions --check --yes` killed whatever process had the dead runtime's pid.
    it('is a zombie, marked and never signalled, when its pid now names another process', async () => {
      const runtime = await startRuntimeChild();
      child = runtime;
      const executionDir = await makeExecution(world, 'exec-r');
      await writeRuntimeLock(executionDir, runtime.pid, 'the-dead-runtime:12345');
      const started = new Date(Date.now() - 9 * HOUR).toISOString();
      await world.registry.register(
        'pipeline-exec-r',
        pipelineEntry({
          ...running,
          pid: runtime.pid,
          execution_dir: executionDir,
          started_at: started,
        }),
      );

      const result = await checkAndRepairExecutions({
        projectDir: world.dir,
        killStale: () => true,
      });

      expect(isPidAlive(runtime.pid)).toBe(true);
      expect(result.killed).toEqual([]);
      expect(result.fixed).toEqual(['pipeline-exec-r']);
      expect(result.anomalies.staleLocks.map((lock) => lock.file)).toEqual([
        executionLayout(executionDir).lockFile,
      ]);
      expect((await world.registry.read()).sessions['pipeline-exec-r']?.status).toBe(
        'unknown_termination',
      );
    });

    it('is left running when the caller says no', async () => {
      const runtime = await staleSession();

      const result = await checkAndRepairExecutions({
        projectDir: world.dir,
        killStale: () => false,
      });

      expect(result.killed).toEqual([]);
      expect(isPidAlive(runtime.pid)).toBe(true);
      expect((await world.registry.read()).sessions['pipeline-exec-s']?.status).toBe('running');
    });
  });
});
