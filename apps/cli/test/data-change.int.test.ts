import { appendFileSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSandbox,
  executionDirOf,
  executionNames,
  runCli,
  type Sandbox,
  stripAnsi,
} from './cli-harness.js';

// One execution of the example, then the data under it is touched and changed: a data change
// never silently starts a new execution (issue 20, item 3). The steps build on each other.
describe('a run after its data changed', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;
  let executionDir: string;
  const cli = (...args: string[]) => runCli(args, { env: sandbox.env, cwd: sandbox.root });
  const run = (...extra: string[]) =>
    cli(example.hankDir, example.dataDir, '--scripted-model', example.script, ...extra);

  beforeAll(async () => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    executionDir = executionDirOf(stripAnsi(first.stdout));
  });
  afterAll(() => sandbox.cleanup());

  it('resumes the same execution when a data file was only touched', async () => {
    const later = new Date(Date.now() + 120_000);
    utimesSync(join(example.dataDir, 'cities.csv'), later, later);
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(executionDirOf(stripAnsi(again.stdout))).toBe(executionDir);
    expect(executionNames(sandbox.baseDir)).toHaveLength(1);
  });

  it('refuses to start a new execution when the content changed, says why and how to go on', async () => {
    appendFileSync(join(example.dataDir, 'cities.csv'), 'Quito,Ecuador,2800000\n');
    const refused = await run();
    expect(refused.code).toBe(1);
    const stderr = stripAnsi(refused.stderr);
    expect(stderr).toContain(`The data at ${example.dataDir} changed (cities.csv)`);
    expect(stderr).toContain(`since execution ${executionDir} was created`);
    expect(stderr).toContain(`--execution ${executionDir} --force`);
    expect(stderr).toContain('--start-new');
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(executionNames(sandbox.baseDir)).toHaveLength(1);
  });

  it('status --data finds the execution by its data path and says it picked it that way', async () => {
    const status = await cli('status', '--data', example.dataDir);
    expect(status.code, status.stderr).toBe(0);
    expect(stripAnsi(status.stdout)).toMatch(new RegExp(`^Execution\\s+${executionDir}$`, 'm'));
    expect(stripAnsi(status.stderr)).toContain(
      `no execution has the current data of ${example.dataDir}; showing ${executionDir}`,
    );
    const checkpoints = await cli('checkpoints', '--data', example.dataDir);
    expect(checkpoints.code, checkpoints.stderr).toBe(0);
  });

  it('resumes with the changed data under --execution X --force, then by hash without flags', async () => {
    const forced = await run('--execution', executionDir, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(executionDirOf(stripAnsi(forced.stdout))).toBe(executionDir);
    const meta = JSON.parse(
      readFileSync(join(executionDir, '.hankweave', 'execution-meta.json'), 'utf8'),
    );
    expect(meta.dataHashVersion).toBe(2);
    const plain = await run();
    expect(plain.code, plain.stderr).toBe(0);
    expect(executionDirOf(stripAnsi(plain.stdout))).toBe(executionDir);
    const status = await cli('status', '--data', example.dataDir);
    expect(status.stderr).not.toContain('showing');
    expect(executionNames(sandbox.baseDir)).toHaveLength(1);
  });

  it('starts a new execution for changed data when asked with --start-new', async () => {
    appendFileSync(join(example.dataDir, 'readme.txt'), 'One more line.\n');
    const fresh = await run('--start-new');
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(executionDirOf(stripAnsi(fresh.stdout))).not.toBe(executionDir);
    expect(executionNames(sandbox.baseDir)).toHaveLength(2);
  });
});
