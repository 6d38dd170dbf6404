import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI_ROOT,
  createSandbox,
  executionDirOf,
  executionNames,
  runCli,
  type Sandbox,
  stripAnsi,
} from './cli-harness.js';

describe('hankweave validate, init and usage errors', () => {
  let sandbox: Sandbox;
  const cli = (args: string[], cwd?: string) =>
    runCli(args, { env: sandbox.env, ...(cwd ? { cwd } : {}) });

  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());

  it('validates the example and prints its numbered structure', async () => {
    const { hankDir } = sandbox.copyExample('valid');
    const result = await cli(['validate', hankDir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\[1\] observe — Observe the data/m);
    expect(result.stdout).toMatch(/^\[3\] loop polish — Polish loop \(up to 2 iterations\)$/m);
    expect(result.stdout).toMatch(/^ {4}\[3\.1\] polish-pass/m);
    expect(result.stdout).toContain('is valid');
  });

  it('rejects a misspelt field, names it, and creates nothing (validate, --validate and a run)', async () => {
    const { hankDir, dataDir } = sandbox.copyExample('misspelt');
    const path = join(hankDir, 'hank.json');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(
        '"promptFile": "prompts/summarize.md"',
        '"promptFiles": "prompts/summarize.md"',
      ),
    );
    for (const args of [
      ['validate', hankDir],
      ['--validate', path],
      [hankDir, dataDir, '--start-new'],
    ]) {
      const result = await cli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('hank[1].promptFiles');
      expect(result.stderr).toContain('Did you mean "promptFile"?');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
    expect(existsSync(sandbox.baseDir)).toBe(false);
    const json = JSON.parse((await cli(['validate', hankDir, '--json'])).stdout);
    expect(json.valid).toBe(false);
    expect(json.errors[0].path).toBe('hank[1].promptFiles');
  });

  it('scaffolds a sample hank with init whose printed command runs offline at once', async () => {
    const dir = join(sandbox.root, 'sample');
    const init = await cli(['init', 'sample'], sandbox.root);
    expect(init.code).toBe(0);
    for (const file of [
      'hank.json',
      'prompts/explore.md',
      'prompts/report.md',
      'data/fruit.csv',
      'model-script.json',
      'README.md',
    ]) {
      expect(existsSync(join(dir, file))).toBe(true);
    }
    const printed = stripAnsi(init.stdout)
      .split('\n')
      .find((line) => line.includes('--scripted-model'))
      ?.trim();
    // The data is passed apart from the hank, so editing a prompt keeps the data hash.
    expect(printed).toBe('hankweave sample sample/data --scripted-model sample/model-script.json');
    const again = await cli(['init', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty');

    const args = (printed ?? '').split(' ').slice(1);
    const run = await cli(args, sandbox.root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/all codons completed/);
    expect(run.stdout).toMatch(/^Codons\s+2 completed$/m);
    const executionDir = executionDirOf(run.stdout);
    expect(readFileSync(join(executionDir, 'agentRoot', 'report.md'), 'utf8')).toContain(
      '# Three fruits',
    );
    expect(readdirSync(join(executionDir, 'agentRoot', 'read_only_data_source')).sort()).toEqual([
      'about.txt',
      'fruit.csv',
    ]);

    const prompt = join(dir, 'prompts', 'report.md');
    writeFileSync(prompt, `${readFileSync(prompt, 'utf8')}Keep it short.\n`);
    const rerun = await cli(args, sandbox.root);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(executionDirOf(rerun.stdout)).toBe(executionDir);
    expect(executionNames(sandbox.baseDir)).toHaveLength(1);
    // In the hank directory, status finds it without --data (the data is its data/ folder).
    const status = await cli(['status'], dir);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(executionDir);
  });

  it('exits 0 for --help and --version and 1 for usage errors, with a hint and no stack trace', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: hankweave');
    expect(help.stdout).toContain('--scripted-model <script.json>');
    const version = await cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(
      JSON.parse(readFileSync(join(CLI_ROOT, 'package.json'), 'utf8')).version,
    );
    expect((await cli(['rollback', '--help'])).code).toBe(0);

    const unknown = await cli(['--no-such-flag']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown option '--no-such-flag'");

    const missing = await cli(['status', '-e', join(sandbox.root, 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: .*nowhere does not exist/m);
    expect(missing.stderr).toMatch(/^→ /m);
    expect(missing.stderr).not.toMatch(/^\s+at /m);

    const noExecution = await cli(['checkpoints'], sandbox.home);
    expect(noExecution.code).toBe(1);
    expect(noExecution.stderr).toContain('No execution found for the data');

    const tooMany = await cli(['a.json', 'b', 'c']);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain('too many arguments');
  });
});
