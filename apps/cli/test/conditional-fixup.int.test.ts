import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, playExample, runCli, type Sandbox } from './cli-harness.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/conditional-fixup/', import.meta.url));

// examples/conditional-fixup: a check writes results.json, the fix-up runs only when it found
// failures, the celebration only when the fix-up was skipped. Both ways, with the built binary
// and the example's model script (the second way with the check's results edited to pass).
describe('hankweave on the conditional example', () => {
  let sandbox: Sandbox;
  const cli = (...args: string[]) => runCli(args, { env: sandbox.env, timeoutMs: 120_000 });
  const play = (hankDir: string) => playExample(hankDir, sandbox.env);

  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox?.cleanup());

  it('validates, showing each condition', async () => {
    const result = await cli('validate', EXAMPLE);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('when results.json /failed ≠ 0');
    expect(result.stdout).toContain('when codon fix is skipped');
  });

  it('runs the fix-up when the check failed, and skips the celebration with its reason', async () => {
    const hankDir = join(sandbox.root, 'failing');
    cpSync(EXAMPLE, hankDir, { recursive: true });
    const { run, agentRoot, codons, executionDir } = await play(hankDir);
    expect(run.code, run.stderr).toBe(0);
    expect(codons.map((codon) => `${codon.codonId}:${codon.status}`)).toEqual([
      'check:completed',
      'fix:completed',
      'celebrate:skipped',
    ]);
    expect(readFileSync(join(agentRoot, 'greeting.txt'), 'utf8')).toBe('Hello, world.\n');
    expect(existsSync(join(agentRoot, 'done.txt'))).toBe(false);
    const status = await cli('status', '-e', executionDir);
    expect(status.stdout).toContain(
      'skipped: when (codon fix is skipped) does not hold: codon fix is completed',
    );
  });

  it('skips the fix-up when the check passed, and celebrates', async () => {
    const hankDir = join(sandbox.root, 'passing');
    cpSync(EXAMPLE, hankDir, { recursive: true });
    const scriptPath = join(hankDir, 'model-script.json');
    writeFileSync(
      scriptPath,
      readFileSync(scriptPath, 'utf8').replace(
        '{\\"failed\\": 1, \\"problems\\": [\\"the greeting does not end with a period\\"]}',
        '{\\"failed\\": 0, \\"problems\\": []}',
      ),
    );
    const { run, agentRoot, codons } = await play(hankDir);
    expect(run.code, run.stderr).toBe(0);
    expect(codons.map((codon) => `${codon.codonId}:${codon.status}`)).toEqual([
      'check:completed',
      'fix:skipped',
      'celebrate:completed',
    ]);
    expect(codons[1]?.skipReason).toBe(
      'when (results.json /failed ≠ 0) does not hold: results.json /failed is 0',
    );
    expect(run.stdout).toContain('skipped: when (results.json /failed ≠ 0) does not hold');
    expect(readFileSync(join(agentRoot, 'done.txt'), 'utf8')).toBe('All is well.\n');
  });
});
