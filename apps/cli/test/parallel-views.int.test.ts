import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, executionDirOf, runCli, type Sandbox } from './cli-harness.js';
import { writeParallelHank } from './parallel-hank.js';

// A parallel block's branches as the CLI shows them (issue 36), with the built binary and the
// scripted model: `plan`, then block `review` with branches `left` (style) and `right` (tests)
// that each write their own file at once, merged back, then `ship`.
describe('hankweave shows the branches of a parallel block', () => {
  let sandbox: Sandbox;
  let executionDir: string;
  let runOut: string;
  const cli = (...args: string[]) => runCli(args, { env: sandbox.env, timeoutMs: 120_000 });

  beforeAll(async () => {
    sandbox = createSandbox();
    const { hankDir, dataDir, script } = writeParallelHank(join(sandbox.root, 'parallel'));
    const run = await cli(hankDir, dataDir, '--scripted-model', script, '--start-new');
    expect(run.code, run.stderr).toBe(0);
    runOut = run.stdout;
    executionDir = executionDirOf(run.stdout);
  }, 180_000);
  afterAll(() => sandbox?.cleanup());

  it("prefixes a branch codon's run lines with its branch", () => {
    expect(runOut).toMatch(/ \[review\/left\] style +/);
    expect(runOut).toMatch(/ \[review\/right\] tests +/);
    expect(runOut).toMatch(/ plan {12}/);
  });

  it('status: a lane column, the merge row as the block merge; --json carries the lane', async () => {
    const status = await cli('status', '-e', executionDir);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/✓ review\/left {3}style /);
    expect(status.stdout).toMatch(/✓ review\/right {2}tests /);
    // The merge runs no agent: no tokens on its row.
    expect(status.stdout).toMatch(/✓ review merge {2}review +Review +\d+ms {20}\$0\.0000/);
    expect(status.stdout).toMatch(/✓ {15}ship /);
    const json = JSON.parse((await cli('status', '-e', executionDir, '--json')).stdout) as {
      codons: { codonId: string; status: string; lane?: string; parallel?: unknown }[];
    };
    expect(json.codons.map((row) => `${row.codonId}:${row.status}:${row.lane ?? ''}`)).toEqual([
      'plan:completed:',
      'style:completed:review/left',
      'tests:completed:review/right',
      'review:completed:review merge',
      'ship:completed:',
    ]);
    expect(json.codons[2]?.parallel).toEqual({
      blockId: 'review',
      role: 'branch',
      branchId: 'right',
    });
  });

  it('events --branch keeps one branch; checkpoints --branch its checkpoints', async () => {
    const events = await cli('events', '-e', executionDir, '--branch', 'review/left', '--json');
    expect(events.code, events.stderr).toBe(0);
    const codons = new Set(
      events.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).data.codonId),
    );
    expect([...codons]).toEqual(['style']);
    const checkpoints = await cli('checkpoints', '-e', executionDir, '--branch', 'right', '--json');
    expect(checkpoints.code, checkpoints.stderr).toBe(0);
    const listed = checkpoints.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { codonId: string; branch?: string });
    expect(listed.length).toBeGreaterThan(0);
    for (const checkpoint of listed) {
      expect(checkpoint.codonId).toBe('tests');
      expect(checkpoint.branch).toMatch(/\.review\.right$/);
    }
    const unknown = await cli('events', '-e', executionDir, '--branch', 'review/lft');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('Did you mean "review/left"?');
  });

  it('diff takes a branch for its newest codon', async () => {
    const diff = await cli('diff', 'plan', 'review/left', '-e', executionDir, '--json');
    expect(diff.code, diff.stderr).toBe(0);
    const files = (JSON.parse(diff.stdout) as { files: { path: string }[] }).files;
    expect(files.map((file) => file.path)).toEqual(['style.txt']);
  });

  // Last: it changes the execution.
  it('rollback takes a branch for its newest codon', async () => {
    const rollback = await cli('rollback', 'review/left', '-e', executionDir);
    expect(rollback.code, rollback.stderr).toBe(0);
    expect(rollback.stdout).toMatch(/Rolled back to style /);
  });
});
