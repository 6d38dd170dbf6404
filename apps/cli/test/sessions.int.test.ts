import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionSummary } from '@hankweave/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  createSandbox,
  executionDirOf,
  runCli,
  type Sandbox,
  startCli,
  stripAnsi,
} from './cli-harness.js';

// The session commands end to end on the built binary: real runs of the example hank on the
// scripted model register themselves; `kill`, `kill -9` + `sessions --check`, and `prune` act on
// them from other processes. The tests share one sandbox and run in order.

/** What `sessions --json` prints per session: the embedding API's summary. */
type Summary = SessionSummary;

const FIXTURES = new URL('./fixtures/sessions/', import.meta.url);

describe('hankweave sessions, kill, prune', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;
  let slow: ReturnType<Sandbox['copyExample']>;
  beforeAll(() => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    slow = sandbox.copyExample('slow-hank');
    // The first codon's first tool call sleeps: long enough to be stopped while it runs. (Claude
    // Code refuses a standalone `sleep`, hence the `ls` before it.)
    const script = JSON.parse(readFileSync(slow.script, 'utf8'));
    script.conversations[0].turns[0].content[1] = {
      bash: { command: 'ls read_only_data_source && sleep 30', description: 'Wait' },
    };
    writeFileSync(slow.script, JSON.stringify(script, null, 2));
  });
  afterAll(() => sandbox.cleanup());

  const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: sandbox.env });
  const listJson = async (...flags: string[]): Promise<Summary[]> => {
    const run = await cli(['sessions', '--json', ...flags]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as Summary[];
  };
  const pipelineOf = async (executionDir: string) =>
    (await listJson('--all')).find(
      (session) => session.type === 'pipeline' && session.executionDir === executionDir,
    );

  /** Starts the slow hank and resolves once its first codon sleeps and its session is running. */
  async function startSlowRun() {
    const run = startCli(
      [slow.hankDir, slow.dataDir, '--scripted-model', slow.script, '--start-new', '--json'],
      sandbox.env,
    );
    await run.waitForErrors(/Execution: (\S+)/, 30_000);
    const executionDir = /Execution: (\S+)/.exec(run.errors())?.[1] as string;
    await run.waitFor(/sleep 30/, 30_000);
    const session = await pipelineOf(executionDir);
    expect(session).toMatchObject({ status: 'running', alive: true });
    return { run, executionDir, key: session?.key as string };
  }

  it('explains where it looked when there are no sessions yet', async () => {
    const run = await cli(['sessions']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `No sessions in ${join(sandbox.baseDir, '.claude', 'loop-sessions.json')}`,
    );
    expect(run.stdout).toMatch(/hankweave <hank>/);
    const list = await cli(['list']);
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/hankweave sessions/);
  });

  it('lists a completed run with its cost and its loop (sessions --json, ls)', async () => {
    const run = await cli([example.hankDir, example.dataDir, '--scripted-model', example.script]);
    expect(run.code).toBe(0);
    const executionDir = executionDirOf(run.stdout + run.stderr);

    const sessions = await listJson();
    const pipeline = sessions.find(
      (session) => session.executionDir === executionDir && session.type === 'pipeline',
    );
    expect(pipeline).toMatchObject({ status: 'completed', parent: null });
    expect(pipeline?.costUsd).toBeGreaterThan(0);
    expect(pipeline?.entry).toMatchObject({ type: 'pipeline', status: 'completed' });
    const loop = sessions.find((session) => session.parent === pipeline?.key);
    expect(loop).toMatchObject({
      type: 'loop',
      status: 'completed',
      iterations: 2,
      maxIterations: 2,
    });

    const table = await cli(['ls']);
    expect(table.code).toBe(0);
    const lines = stripAnsi(table.stdout).split('\n');
    const pipelineLine = lines.findIndex((line) => line.includes(pipeline?.key as string));
    expect(lines[pipelineLine]).toMatch(/^completed\s+pipeline-\S+\s+hello-hank\s+.*\$\d/);
    expect(lines[pipelineLine + 1]).toMatch(/^ {2}completed\s+loop-\S+.*\s2\/2$/);
  });

  it('kill stops a running hank from another process and the registry says killed', async () => {
    const { run, executionDir, key } = await startSlowRun();

    const killed = await cli(['kill', key.replace(/^pipeline-/, ''), '--grace', '20s']);

    expect(killed.code).toBe(0);
    expect(killed.stdout).toMatch(new RegExp(`Stopped ${key}: pid \\d+ stopped`));
    expect(await run.exited()).toBe(0);
    expect(await pipelineOf(executionDir)).toMatchObject({ status: 'killed' });
  });

  it('sessions --check finds and fixes the zombie a kill -9 leaves', async () => {
    const { run, executionDir, key } = await startSlowRun();
    await run.stop('SIGKILL');

    const check = await cli(['sessions', '--check']);

    expect(check.stdout).toMatch(/Zombies \(1\)/);
    expect(check.stdout).toMatch(new RegExp(`${key}\\s+pid \\d+\\s+→ marked unknown_termination`));
    expect(check.code).toBe(0);
    const session = await pipelineOf(executionDir);
    expect(session?.status).toBe('unknown_termination');
    expect(session?.note).toMatch(
      /died without closing the session \(found by sessions --check at /,
    );
    // Fixed: a second check is clean.
    expect((await cli(['sessions', '--check'])).code).toBe(0);
  });

  it('prune --executions frees exactly the bytes prune --dry-run said, and the executions are gone', async () => {
    const before = await listJson('--all');
    const dry = await cli(['prune', '--older-than', '0s', '--executions', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    const ended = before.filter((session) => ['completed', 'killed'].includes(session.status));
    expect([...planned.sessions].sort()).toEqual(ended.map((session) => session.key).sort());
    const executions = planned.paths.filter((path: { kind: string }) => path.kind === 'execution');
    expect(executions).toHaveLength(2);
    for (const path of executions) expect(existsSync(path.path)).toBe(true);
    expect(planned.freedBytes).toBeGreaterThan(0);

    const real = await cli(['prune', '--older-than', '0s', '--executions', '--json']);

    expect(real.code).toBe(0);
    const done = JSON.parse(real.stdout);
    expect(done.freedBytes).toBe(planned.freedBytes);
    expect(done.paths).toEqual(planned.paths);
    for (const path of executions) expect(existsSync(path.path)).toBe(false);
    const after = await listJson('--all');
    expect(after.map((session) => session.status)).toEqual(['unknown_termination']);
  });

  it('prints sessions recorded by earlier runs and the seed’s own tools (fixture)', async () => {
    const base = join(sandbox.root, 'fixture-base');
    cpSync(fileURLToPath(new URL('past-runs', FIXTURES)), base, { recursive: true });
    const run = await cli(['sessions', '--all', '--base', base]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'STATUS SESSION',
      'killed pipeline-1736100000000-cd34-hello',
      'completed pipeline-1736000000000-ab12-hello',
      'completed loop-1736000000000-ab12-hello-polish',
      'unknown_termination pipeline-refine',
    ]);
    expect(lines[3]).toMatch(/^ {2}completed\s+loop-1736000000000-ab12-hello-polish\s.*\s3\/5$/);
    expect((await cli(['sessions', '--base', base])).stdout).toMatch(/--all shows every entry/);
  });

  it('reports bad flags, unknown sessions and a corrupt registry with what to do', async () => {
    const badDuration = await cli(['prune', '--older-than', 'soon']);
    expect(badDuration.code).toBe(1);
    expect(badDuration.stderr).toMatch(/--older-than: "soon" is not a duration\n→ .*7d/);
    const unknown = await cli(['kill', 'no-such-session']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /No session "no-such-session" in .*\n→ .*hankweave sessions --all/,
    );
    const base = join(sandbox.root, 'corrupt-base');
    mkdirSync(join(base, '.claude'), { recursive: true });
    writeFileSync(join(base, '.claude', 'loop-sessions.json'), '{ "sessions": ');
    const corrupt = await cli(['sessions', '--base', base]);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toMatch(/loop-sessions\.json/);
    expect(corrupt.stderr).toMatch(/→ /);
  });
});
