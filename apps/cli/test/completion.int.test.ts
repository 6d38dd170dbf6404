import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, createSandbox, executionDirOf, runCli, type Sandbox } from './cli-harness.js';

/**
 * Item 6 of issue 32: completion offers values (codon ids and run ids of the executions here,
 * through the real CLI), not file names. bash runs the generated script; `hankweave` is the
 * built CLI.
 */
describe('shell completion of values from the executions here', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;
  let executionDir: string;
  beforeAll(async () => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    const run = await runCli(
      [example.hankDir, example.dataDir, '--scripted-model', example.script],
      { env: sandbox.env, timeoutMs: 90_000 },
    );
    expect(run.code).toBe(0);
    executionDir = executionDirOf(run.stdout);
  }, 120_000);
  afterAll(() => sandbox.cleanup());

  /** What bash offers for `line` in `cwd`, the script loaded from `hankweave completion bash`. */
  const complete = (line: string, cwd: string) => {
    const words = line.split(' ');
    const probe = `hankweave() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }
source <(hankweave completion bash)
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_hankweave_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const result = spawnSync('bash', ['-c', probe], { encoding: 'utf8', cwd, env: sandbox.env });
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter((word) => word !== '');
  };

  it('offers the codon ids of the execution of the hank directory it is run in', () => {
    expect(complete('hankweave rollback ', example.hankDir).sort()).toEqual(
      [
        'last-success',
        'observe',
        'summarize',
        'polish-pass#0',
        'polish-pass#1',
        'polish-pass',
      ].sort(),
    );
    expect(complete('hankweave events --codon pol', example.hankDir).sort()).toEqual(
      ['polish-pass', 'polish-pass#0', 'polish-pass#1'].sort(),
    );
  });

  it('follows -e and --data typed on the line', () => {
    expect(complete(`hankweave diff -e ${executionDir} s`, sandbox.root)).toEqual(['summarize']);
    expect(complete(`hankweave checkpoints --data ${example.dataDir} --codon o`, '/')).toEqual([
      'observe',
    ]);
    const runs = complete(`hankweave checkpoints -e ${executionDir} --run `, '/');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^\d+-[a-z0-9]{5}$/);
  });

  it('offers nothing rather than an error where no execution is found', () => {
    const env = { ...sandbox.env, HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: '/nonexistent' };
    const run = spawnSync(process.execPath, [BIN, '__complete', 'codons', '--', 'events'], {
      encoding: 'utf8',
      env,
    });
    expect(run).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });
});
