import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliVersion } from '../src/version.js';
import {
  CLI_ROOT,
  createSandbox,
  executionDirOf,
  runCli,
  runProcess,
  type Sandbox,
} from './cli-harness.js';

const REPO_ROOT = resolve(CLI_ROOT, '..', '..');
/** A directory inside the repository, so pnpm finds the root script from there. */
const EXAMPLES = join(REPO_ROOT, 'examples');
/** The root script builds what is stale first: the whole chain when a package changed. */
const BUILD_TIMEOUT_MS = 300_000;

let sandbox: Sandbox;
/** The environment of a user who ran the README's setup: no key, a private HOME. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = createSandbox();
  env = { ...sandbox.env };
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'HW_CLI_LAUNCHER']) {
    delete env[name];
  }
  // Warm the build through the root script itself: a stale package is rebuilt here, once.
  const warm = await pnpmHankweave(['--version'], EXAMPLES, BUILD_TIMEOUT_MS);
  expect(warm.code, warm.stderr).toBe(0);
}, BUILD_TIMEOUT_MS);
afterAll(() => sandbox.cleanup());

/** `pnpm -s hankweave ...` as a user types it in `cwd` (-s: pnpm prints no banner on stdout). */
function pnpmHankweave(args: string[], cwd: string, timeoutMs = 120_000) {
  return runProcess('pnpm', ['-s', 'hankweave', ...args], { env, cwd, timeoutMs });
}

describe('pnpm hankweave (the root script)', () => {
  it('prints only the CLI output, even without -s: no pnpm banner, no build lines when fresh', async () => {
    const result = await runProcess('pnpm', ['hankweave', '--version'], {
      env,
      cwd: EXAMPLES,
      timeoutMs: 120_000,
    });
    expect(result).toEqual({ code: 0, stdout: `${cliVersion()}\n`, stderr: '' });
  });

  it('prints only the version on stdout: the build goes to stderr', async () => {
    const result = await pnpmHankweave(['--version'], EXAMPLES);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${cliVersion()}\n`);
  });

  it('resolves relative paths against the directory pnpm ran in, and its Resume line runs as printed', async () => {
    const run = await pnpmHankweave(
      [
        'hello-hank',
        'hello-hank/data',
        '--scripted-model',
        'hello-hank/model-script.json',
        '--start-new',
        '--headless',
      ],
      EXAMPLES,
    );
    expect(run.code, run.stderr).toBe(0);
    const executionDir = executionDirOf(run.stdout);
    const resume = /^Resume\s+(.+)$/m.exec(run.stdout)?.[1]?.trim() ?? '';
    expect(resume.startsWith(`pnpm hankweave --execution ${executionDir}`)).toBe(true);
    // A dry run resumes offline only with its script again: the hint must carry it.
    expect(resume).toContain(
      `--scripted-model ${join(EXAMPLES, 'hello-hank', 'model-script.json')}`,
    );
    expect(run.stdout).toMatch(
      new RegExp(`^Inspect\\s+pnpm hankweave checkpoints -e ${executionDir}`, 'm'),
    );

    const again = await runProcess('sh', ['-c', resume], {
      env,
      cwd: EXAMPLES,
      timeoutMs: 120_000,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(executionDirOf(again.stdout)).toBe(executionDir);

    // The rollback's "Continue from there" line also runs as printed: the registry remembers
    // that this execution is a dry run and on which script.
    const rollback = await pnpmHankweave(['rollback', 'summarize', '-e', executionDir], EXAMPLES);
    expect(rollback.code, rollback.stderr).toBe(0);
    const carryOn = /^Continue from there: (.+)$/m.exec(rollback.stdout)?.[1]?.trim() ?? '';
    expect(carryOn).toContain('--scripted-model');
    const resumed = await runProcess('sh', ['-c', `${carryOn} --headless`], {
      env,
      cwd: EXAMPLES,
      timeoutMs: 120_000,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(executionDirOf(resumed.stdout)).toBe(executionDir);
  }, 240_000);

  it('keeps stdout to JSON for --json commands', async () => {
    const run = await runCli(
      [
        join(EXAMPLES, 'hello-hank'),
        join(EXAMPLES, 'hello-hank', 'data'),
        '--scripted-model',
        join(EXAMPLES, 'hello-hank', 'model-script.json'),
        '--start-new',
        '--headless',
      ],
      { env },
    );
    expect(run.code, run.stderr).toBe(0);
    const status = await pnpmHankweave(
      ['status', '-e', executionDirOf(run.stdout), '--json'],
      EXAMPLES,
    );
    expect(status.code, status.stderr).toBe(0);
    const json = JSON.parse(status.stdout) as { cost: { agents: number; total: number } };
    expect(json.cost.total).toBeGreaterThan(0);
    expect(json.cost.agents).toBe(json.cost.total);
  });
});

describe('hankweave (the built bin)', () => {
  it('prints the version', async () => {
    const result = await runCli(['--version'], { env });
    expect(result.stdout.trim()).toBe(cliVersion());
  });

  it('says "did you mean" for a mistyped subcommand instead of running it as a hank', async () => {
    const result = await runCli(['statsu'], { env, cwd: sandbox.root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('`statsu` is not a command');
    expect(result.stderr).toContain('Did you mean `hankweave status`?');
  });

  it('runs an existing directory named like a subcommand as a hank, without a suggestion', async () => {
    mkdirSync(join(sandbox.root, 'statsu'), { recursive: true });
    const result = await runCli(['statsu'], { env, cwd: sandbox.root });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('Did you mean');
  });

  it('prints a completion script bash accepts, listing the subcommands', async () => {
    const result = await runCli(['completion', 'bash'], { env });
    expect(result.code).toBe(0);
    for (const name of ['status', 'rollback', 'sessions', 'completion'])
      expect(result.stdout).toContain(name);
    const check = spawnSync('bash', ['-n'], { input: result.stdout, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    const wrong = await runCli(['completion', 'tcsh'], { env });
    expect(wrong.code).toBe(1);
  });

  it('applies -m before -v, as the README says', async () => {
    const { hankDir } = sandbox.copyExample('model-hank');
    const hankFile = join(hankDir, 'hank.json');
    writeFileSync(
      hankFile,
      readFileSync(hankFile, 'utf8').replaceAll(/"model": "[^"]*"/g, '"model": ""'),
    );
    const bad = await runCli([hankDir, '-v'], { env });
    expect(bad.code).toBe(1);
    const fixed = await runCli([hankDir, '-m', 'haiku', '-v'], { env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('is valid');
  });

  it('labels what the cost covers, in the summary and in status, and tells loop iterations apart', async () => {
    const { hankDir, dataDir, script } = sandbox.copyExample('cost-hank');
    const run = await runCli([hankDir, dataDir, '--scripted-model', script, '--headless'], {
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const costLine = /^Cost\s+\$[\d.]+ = agent codons \$[\d.]+ \+ sentinels \$[\d.]+, over 1 run/m;
    expect(run.stdout).toMatch(costLine);
    expect(run.stdout).toMatch(/^\s+✓ polish-pass#0\s/m);
    expect(run.stdout).toMatch(/^\s+✓ polish-pass#1\s/m);
    const status = await runCli(['status', '-e', executionDirOf(run.stdout)], { env });
    expect(status.stdout).toMatch(costLine);
  });
});
