import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSI,
  type CliResult,
  createSandbox,
  executionDirOf,
  runCli,
  type Sandbox,
  startCli,
  treeSnapshot,
} from './cli-harness.js';

// The bundled example, run offline end to end with the built binary, then inspected, rolled back
// and resumed with the subcommands, as the root README tells a new user to do.
describe('hankweave on the bundled example', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;
  let run: CliResult;
  let executionDir: string;
  const cli = (...args: string[]) => runCli(args, { env: sandbox.env });
  const summaryAfterSummarize = () => {
    const script = JSON.parse(readFileSync(example.script, 'utf8'));
    const conversation = script.conversations.find(
      (candidate: { name: string }) => candidate.name === 'summarize',
    );
    return conversation.turns[0].content[0].write.content as string;
  };

  beforeAll(async () => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    run = await cli(
      example.hankDir,
      example.dataDir,
      '--scripted-model',
      example.script,
      '--start-new',
    );
    executionDir = executionDirOf(run.stdout);
  });
  afterAll(() => sandbox.cleanup());

  it('runs all codons offline and ends with the summary', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/hello-hank: all codons completed/);
    for (const codonId of ['observe', 'summarize', 'polish-pass#0', 'polish-pass#1']) {
      expect(run.stdout).toMatch(new RegExp(`^  ✓ ${codonId}\\s`, 'm'));
    }
    expect(run.stdout).toMatch(/^Codons\s+4 completed$/m);
    expect(run.stdout).toMatch(/^Checkpoints\s+5$/m);
    expect(run.stdout).toContain(`hankweave --execution ${executionDir}`);
    expect(run.stdout).toContain(`hankweave checkpoints -e ${executionDir}`);
    expect(executionDir.startsWith(sandbox.baseDir)).toBe(true);
  });

  it('prints one plain line per event and no ANSI escapes when stdout is not a TTY', () => {
    expect(run.stdout).not.toMatch(ANSI);
    expect(run.stdout).toMatch(/ observe\s+tool Bash \$ ls read_only_data_source$/m);
    expect(run.stdout).toMatch(/ observe\s+rig stdout: README.md$/m);
    expect(run.stdout).toMatch(/ polish-pass#1\s+completed in /m);
  });

  it('leaves a completed state and checkpoints in the execution directory', () => {
    const state = JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
    expect(state.runs).toHaveLength(1);
    expect(state.runs[0].status).toBe('completed');
    expect(
      state.runs[0].codons.map(
        (codon: { codonId: string; status: string }) => `${codon.codonId}:${codon.status}`,
      ),
    ).toEqual([
      'observe:completed',
      'summarize:completed',
      'polish-pass#0:completed',
      'polish-pass#1:completed',
    ]);
    expect(
      existsSync(join(executionDir, '.hankweave', 'checkpoints', '.hankweavecheckpoints', 'HEAD')),
    ).toBe(true);
    expect(existsSync(join(executionDir, '.hankweave', 'runtime.lock'))).toBe(false);
    expect(readFileSync(join(executionDir, 'agentRoot', 'summary.md'), 'utf8')).toContain(
      'Populations are approximate.',
    );
  });

  it('inspects the execution with status, events, checkpoints and diff without writing to it', async () => {
    const before = treeSnapshot(executionDir);

    const status = await cli('status', '--data', example.dataDir);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Execution    ${executionDir}`);
    expect(status.stdout).toMatch(/Runtime\s+not running/);
    expect(status.stdout).toMatch(/Codons\s+4 completed/);
    const statusJson = JSON.parse((await cli('status', '-e', executionDir, '--json')).stdout);
    expect(statusJson.codons.map((codon: { status: string }) => codon.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
    expect(statusJson.nextCodonId).toBeNull();

    const tail = await cli('events', '-e', executionDir, '-n', '3');
    expect(tail.stdout.trim().split('\n')).toHaveLength(3);
    const completed = await cli('events', '-e', executionDir, '--type', 'codon.completed');
    expect(completed.stdout.trim().split('\n')).toHaveLength(4);
    const loop = await cli(
      'events',
      '-e',
      executionDir,
      '--type',
      'codon.*',
      '--codon',
      'polish-pass',
      '--json',
      '-n',
      'all',
    );
    const loopEvents = loop.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(loopEvents.map((event) => `${event.type}:${event.data.codonId}`)).toEqual([
      'codon.started:polish-pass#0',
      'codon.completed:polish-pass#0',
      'codon.started:polish-pass#1',
      'codon.completed:polish-pass#1',
    ]);

    const checkpoints = await cli('checkpoints', '-e', executionDir);
    expect(checkpoints.code).toBe(0);
    const rows = checkpoints.stdout
      .split('\n')
      .filter((line) => /^[ *] (completed|rig-setup)/.test(line));
    expect(rows.map((line) => line.slice(2).split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'completed polish-pass#1',
      'completed polish-pass#0',
      'completed summarize',
      'completed observe',
      'rig-setup observe',
    ]);
    expect(rows[0]).toMatch(/^\* /);
    const listed = (await cli('checkpoints', '-e', executionDir, '--json')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(listed).toHaveLength(5);
    expect(listed[0]).toMatchObject({
      type: 'completed',
      codonId: 'polish-pass#1',
      branch: expect.stringMatching(/^run-/),
      head: true,
    });

    const diff = await cli('diff', 'summarize', 'polish-pass#1', '-e', executionDir);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/^M {2}summary\.md$/m);
    expect(diff.stdout).toMatch(/^\+Populations are approximate\.$/m);
    const added = await cli('diff', 'observe', '--name-only', '-e', executionDir);
    expect(added.stdout).toMatch(/^A {2}notes\/observations\.md$/m);
    const bySha = await cli(
      'diff',
      listed[4].sha.slice(0, 7),
      listed[3].sha.slice(0, 8),
      '-e',
      executionDir,
      '--json',
    );
    expect(
      JSON.parse(bySha.stdout).files.map(
        (file: { path: string; status: string }) => `${file.status} ${file.path}`,
      ),
    ).toEqual(['A notes/observations.md']);

    expect(treeSnapshot(executionDir)).toEqual(before);
  });

  it('refuses to roll back while another live process holds runtime.lock', async () => {
    const lock = join(executionDir, '.hankweave', 'runtime.lock');
    const now = new Date().toISOString();
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, runId: 'other', startTime: now, lastHeartbeat: now }),
    );
    try {
      const refused = await cli('rollback', 'last-success', '-e', executionDir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`is running (pid ${process.pid}`);
      expect(refused.stderr).toMatch(/→ Stop that run first/);
    } finally {
      rmSync(lock);
    }
  });

  it('rolls back to a codon and to a sha, restoring the tracked files (followed by events --follow)', async () => {
    const summary = join(executionDir, 'agentRoot', 'summary.md');
    const follower = startCli(
      ['events', '-e', executionDir, '--follow', '-n', '0', '--type', 'rollback.*'],
      sandbox.env,
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(follower.output()).toBe('');
    const toCodon = await cli('rollback', 'summarize', '-e', executionDir);
    expect(toCodon.code).toBe(0);
    await follower.waitFor(/rollback\.completed\s.*rollback completed: at summarize \(completed\)/);
    expect(follower.output()).toMatch(/^\S+ rollback\.started /m);
    expect(await follower.stop()).toBe(0);
    expect(toCodon.stdout).toMatch(/Rolled back to summarize [0-9a-f]{7}/);
    // One rollback, one run: no empty `continue` run opened before the rollback's own.
    const runs = (
      JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8')) as {
        runs: { codons: unknown[]; startingConditions: { reason?: string } }[];
      }
    ).runs;
    // state.json lists the newest run first.
    expect(runs.map((run) => run.startingConditions.reason ?? 'fresh')).toEqual([
      'rollback',
      'fresh',
    ]);
    expect(readFileSync(summary, 'utf8')).toBe(summaryAfterSummarize());
    expect((await cli('status', '-e', executionDir)).stdout).toMatch(/Next codon\s+polish-pass#0/);

    const listed = (
      await cli(
        'checkpoints',
        '-e',
        executionDir,
        '--codon',
        'observe',
        '--type',
        'completed',
        '--json',
      )
    ).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(listed).toHaveLength(1);
    const toSha = await cli('rollback', listed[0].sha.slice(0, 7), '-e', executionDir);
    expect(toSha.code).toBe(0);
    expect(existsSync(summary)).toBe(false);
    expect(
      readFileSync(join(executionDir, 'agentRoot', 'notes', 'observations.md'), 'utf8'),
    ).toContain('# Observations');
    expect((await cli('status', '-e', executionDir)).stdout).toMatch(/Next codon\s+summarize/);
  });

  it('resumes after the rollback and runs the rest of the plan again', async () => {
    const resumed = await cli('--execution', executionDir, '--scripted-model', example.script);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/all codons completed/);
    expect(resumed.stdout).toMatch(/^Codons\s+4 completed$/m);
    expect(readFileSync(join(executionDir, 'agentRoot', 'summary.md'), 'utf8')).toContain(
      'Populations are approximate.',
    );
  });
});
