import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { ensureProgressFile, sessionLayout, writeLoopState } from '@hankweave/sessions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  daysAgo,
  loopEntry,
  makeExecution,
  makeWorld,
  pipelineEntry,
  type SessionsWorld,
  writeRuntimeLock,
} from '../../test/sessions-world.js';
import { pruneExecutions } from './prune-executions.js';

describe('pruneExecutions()', () => {
  let world: SessionsWorld;
  let dryRunRoot: TempDir;
  beforeEach(async () => {
    world = await makeWorld();
    dryRunRoot = await makeTempDir('hankweave-dry-run-tester-');
  });
  afterEach(async () => {
    await world.temp.cleanup();
    await dryRunRoot.cleanup();
  });

  /** An old completed pipeline with a loop, its state files, an execution, a backup and a config dir. */
  async function oldRun(name: string, fields: Parameters<typeof pipelineEntry>[0] = {}) {
    const executionDir = await makeExecution(world, name, { bytes: 3000, backupBytes: 500 });
    const agentConfigDir = join(dryRunRoot.path, name, 'claude-config');
    await mkdir(agentConfigDir, { recursive: true });
    await writeFile(join(agentConfigDir, 'settings.json'), '{"a":1}');
    const layout = sessionLayout(world.dir);
    await world.registry.register(
      `pipeline-${name}`,
      pipelineEntry({ execution_dir: executionDir, agent_config_dir: agentConfigDir, ...fields }),
    );
    await world.registry.register(
      `loop-${name}-polish`,
      loopEntry(`pipeline-${name}`, { execution_dir: executionDir }),
    );
    await writeLoopState(layout.loopStateFile(`${name}-polish`), {
      session: `${name}-polish`,
      type: 'loop',
      started_at: daysAgo(10),
      status: 'completed',
      iteration: 2,
      history: [],
    });
    await ensureProgressFile(layout.progressFile(`${name}-polish`), `${name}-polish`);
    await mkdir(layout.pipelineDir(name), { recursive: true });
    await writeFile(layout.pipelineStateFile(name), '{}');
    return { executionDir, agentConfigDir };
  }

  it('frees exactly what the dry run measured, and the dry run removes nothing', async () => {
    const { executionDir, agentConfigDir } = await oldRun('exec-a');
    await world.registry.register('pipeline-recent', pipelineEntry({ completed_at: daysAgo(1) }));

    const dry = await pruneExecutions({ projectDir: world.dir, executions: true, dryRun: true });

    expect(dry.dryRun).toBe(true);
    expect([...dry.sessions].sort()).toEqual(['loop-exec-a-polish', 'pipeline-exec-a']);
    expect(dry.paths.map((path) => path.kind).sort()).toEqual([
      'agent-config',
      'backup',
      'execution',
      'loop-state',
      'pipeline-run',
      'progress',
    ]);
    const execution = dry.paths.find((path) => path.kind === 'execution');
    expect(execution).toMatchObject({ path: executionDir });
    // The backup is counted on its own, not inside the execution's bytes.
    expect(dry.paths.find((path) => path.kind === 'backup')?.bytes).toBe(500);
    expect(execution?.bytes).toBeGreaterThanOrEqual(3000);
    expect(execution?.bytes).toBeLessThan(3500);
    expect(dry.freedBytes).toBe(dry.paths.reduce((sum, path) => sum + path.bytes, 0));
    expect(existsSync(executionDir)).toBe(true);
    expect(Object.keys((await world.registry.read()).sessions)).toHaveLength(3);

    const real = await pruneExecutions({ projectDir: world.dir, executions: true });

    expect(real).toEqual({ ...dry, dryRun: false });
    expect(existsSync(executionDir)).toBe(false);
    expect(existsSync(agentConfigDir)).toBe(false);
    for (const path of real.paths) expect(existsSync(path.path)).toBe(false);
    expect(Object.keys((await world.registry.read()).sessions)).toEqual(['pipeline-recent']);
  });

  // Issue 31: `-e <a user's directory> --force` put an execution beside the user's own files;
  // prune removes what hankweave created there and nothing else, and keeps the directory.
  it("removes only what hankweave created in a user's directory, never the user's files", async () => {
    const dir = await makeExecution(world, 'users-own-dir', {
      created: { directory: false, entries: ['agentRoot', 'rigArchive'] },
    });
    await writeFile(join(dir, 'thesis.tex'), 'years of work');
    await mkdir(join(dir, 'rigArchive'));
    await world.registry.register('pipeline-user', pipelineEntry({ execution_dir: dir }));

    const result = await pruneExecutions({ projectDir: world.dir, executions: true });

    expect(result.paths.find((path) => path.kind === 'execution')).toMatchObject({
      path: dir,
      created: { directory: false, entries: ['agentRoot', 'rigArchive', '.hankweave'] },
    });
    expect(existsSync(join(dir, 'thesis.tex'))).toBe(true);
    for (const name of ['agentRoot', 'rigArchive', '.hankweave'])
      expect(existsSync(join(dir, name))).toBe(false);
  });

  it('removes only the layout of an execution without a record, and keeps its directory', async () => {
    const dir = await makeExecution(world, 'legacy', { created: null });
    await writeFile(join(dir, 'user-notes.md'), 'mine');
    await world.registry.register('pipeline-legacy', pipelineEntry({ execution_dir: dir }));

    await pruneExecutions({ projectDir: world.dir, executions: true });

    expect(existsSync(join(dir, 'user-notes.md'))).toBe(true);
    expect(existsSync(join(dir, 'agentRoot'))).toBe(false);
    expect(existsSync(join(dir, '.hankweave'))).toBe(false);
  });

  it('keeps execution directories without --executions but removes the state files', async () => {
    const { executionDir } = await oldRun('exec-a');

    const result = await pruneExecutions({ projectDir: world.dir });

    expect(result.paths.map((path) => path.kind).sort()).toEqual([
      'loop-state',
      'pipeline-run',
      'progress',
    ]);
    expect(existsSync(executionDir)).toBe(true);
    expect((await world.registry.read()).sessions).toEqual({});
  });

  it('never prunes running sessions, nor loops whose pipeline stays', async () => {
    await world.registry.register(
      'pipeline-live',
      pipelineEntry({ status: 'running', completed_at: null, started_at: daysAgo(30) }),
    );
    await world.registry.register('loop-live-polish', loopEntry('pipeline-live'));

    const result = await pruneExecutions({ projectDir: world.dir, olderThanMs: 0 });

    expect(result.sessions).toEqual([]);
    expect(Object.keys((await world.registry.read()).sessions).sort()).toEqual([
      'loop-live-polish',
      'pipeline-live',
    ]);
  });

  it('selects by --older-than and --status', async () => {
    await world.registry.register(
      'pipeline-killed',
      pipelineEntry({ status: 'killed', completed_at: null, killed_at: daysAgo(3) }),
    );
    await world.registry.register(
      'pipeline-lost',
      pipelineEntry({ status: 'unknown_termination', completed_at: null }),
    );

    const dry = await pruneExecutions({
      projectDir: world.dir,
      olderThanMs: 2 * 24 * 3600 * 1000,
      statuses: ['killed'],
      dryRun: true,
    });

    expect(dry.sessions).toEqual(['pipeline-killed']);
  });

  it('never removes a directory that is no execution, is held by a live runtime, or is still used', async () => {
    const notExecution = await makeExecution(world, 'plain', { meta: false });
    const live = await makeExecution(world, 'live');
    await writeRuntimeLock(live, process.pid);
    const shared = await makeExecution(world, 'shared');
    await world.registry.register('pipeline-plain', pipelineEntry({ execution_dir: notExecution }));
    await world.registry.register('pipeline-live', pipelineEntry({ execution_dir: live }));
    await world.registry.register('pipeline-shared-old', pipelineEntry({ execution_dir: shared }));
    await world.registry.register(
      'pipeline-shared-new',
      pipelineEntry({ execution_dir: shared, completed_at: daysAgo(1) }),
    );
    await world.registry.register('pipeline-root', pipelineEntry({ execution_dir: world.dir }));
    await world.registry.register(
      'pipeline-outside-tmp',
      pipelineEntry({ agent_config_dir: join(world.dir, 'claude-config') }),
    );

    const result = await pruneExecutions({ projectDir: world.dir, executions: true });

    expect(
      result.paths.filter((path) => path.kind === 'execution' || path.kind === 'agent-config'),
    ).toEqual([]);
    expect(result.skipped.map((skip) => skip.path).sort()).toEqual(
      [notExecution, live, shared, world.dir, join(world.dir, 'claude-config')].sort(),
    );
    for (const dir of [notExecution, live, shared, world.dir]) expect(existsSync(dir)).toBe(true);
  });

  it('touches no file for a key that is not a file-safe name', async () => {
    const layout = sessionLayout(world.dir);
    await ensureProgressFile(layout.progressFile('keep'), 'keep');
    await world.registry.register('pipeline-../loop-progress', pipelineEntry());

    const result = await pruneExecutions({ projectDir: world.dir });

    expect(result.sessions).toEqual(['pipeline-../loop-progress']);
    expect(result.paths).toEqual([]);
    expect(existsSync(layout.progressFile('keep'))).toBe(true);
  });

  it('keeps a dry-run config dir another remaining session uses', async () => {
    const { agentConfigDir } = await oldRun('exec-a');
    await world.registry.register(
      'pipeline-exec-b',
      pipelineEntry({ completed_at: daysAgo(1), agent_config_dir: agentConfigDir }),
    );

    const result = await pruneExecutions({ projectDir: world.dir, executions: true });

    expect(result.paths.some((path) => path.kind === 'agent-config')).toBe(false);
    expect(existsSync(agentConfigDir)).toBe(true);
    expect(agentConfigDir.startsWith(tmpdir())).toBe(true);
  });
});
