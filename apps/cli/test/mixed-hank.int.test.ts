import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  createSandbox,
  executionDirOf,
  runCli,
  type Sandbox,
} from './cli-harness.js';

const MIXED_HANK = fileURLToPath(new URL('../../../examples/mixed-hank/', import.meta.url));

// examples/mixed-hank: Claude Code drafts, Pi (gpt-5.2) reviews, Claude Code revises. Validated
// and dry-run with the built binary; the one model script answers both agents offline.
describe('hankweave on the mixed-model example', () => {
  let sandbox: Sandbox;
  let hankDir: string;
  let run: CliResult;
  let executionDir: string;
  const cli = (...args: string[]) => runCli(args, { env: sandbox.env, timeoutMs: 120_000 });

  beforeAll(async () => {
    sandbox = createSandbox();
    // No provider key anywhere: the dry run must need none, for either agent.
    for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY'])
      delete sandbox.env[name];
    hankDir = join(sandbox.root, 'mixed-hank');
    cpSync(MIXED_HANK, hankDir, { recursive: true });
    run = await cli(
      hankDir,
      join(hankDir, 'data'),
      '--scripted-model',
      join(hankDir, 'model-script.json'),
      '--start-new',
    );
    executionDir = executionDirOf(run.stdout);
  }, 180_000);
  afterAll(() => sandbox?.cleanup());

  it('validates a hank whose models run on Claude Code and on Pi', async () => {
    const result = await cli('validate', hankDir, '--json');
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: true, errors: [] });
    expect(result.code).toBe(0);
  });

  it('still refuses a misspelt non-Anthropic model, with a suggestion', async () => {
    const typo = join(sandbox.root, 'typo-hank');
    cpSync(hankDir, typo, { recursive: true });
    const hank = JSON.parse(readFileSync(join(typo, 'hank.json'), 'utf8'));
    hank.hank[1].model = 'gemini-3-pro-previw';
    writeFileSync(join(typo, 'hank.json'), JSON.stringify(hank));
    const result = await cli('validate', typo, '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).errors).toEqual([
      expect.objectContaining({
        path: 'hank[1].model',
        code: 'unknown_model',
        message: expect.stringContaining('Did you mean "gemini-3-pro-preview"?'),
      }),
    ]);
  });

  it('dry-runs end to end, each codon on its own agent', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/mixed-hank: all codons completed/);
    for (const codonId of ['draft', 'review', 'revise'])
      expect(run.stdout).toMatch(new RegExp(`^  ✓ ${codonId}\\s`, 'm'));
    const agentRoot = join(executionDir, 'agentRoot');
    expect(readFileSync(join(agentRoot, 'review.md'), 'utf8')).toContain('Suggestion');
    expect(readFileSync(join(agentRoot, 'report.md'), 'utf8')).toContain('2 of 3 tasks are open');
    const state = JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
    const codons = state.runs[0].codons as {
      codonId: string;
      status: string;
      finalCost?: number;
    }[];
    expect(codons.map((codon) => `${codon.codonId}:${codon.status}`)).toEqual([
      'draft:completed',
      'review:completed',
      'revise:completed',
    ]);
  });

  it('leaves retries to the runtime in a dry run: a Pi request that fails once fails the codon', async () => {
    const flaky = join(sandbox.root, 'flaky-hank');
    cpSync(hankDir, flaky, { recursive: true });
    const scriptPath = join(flaky, 'model-script.json');
    const script = JSON.parse(readFileSync(scriptPath, 'utf8'));
    const review = script.conversations.find((c: { name: string }) => c.name === 'review');
    // Pi's own retry (on by default, 2 s back-off) would get the content on its second try.
    review.turns[0] = { ...review.turns[0], fail: { kind: 'server-error' }, times: 1 };
    writeFileSync(scriptPath, JSON.stringify(script));
    const result = await cli(
      flaky,
      join(flaky, 'data'),
      '--scripted-model',
      scriptPath,
      '--start-new',
      '--headless',
    );
    expect(result.code).not.toBe(0);
    const state = JSON.parse(
      readFileSync(join(executionDirOf(result.stdout), '.hankweave', 'state.json'), 'utf8'),
    );
    const codons = state.runs[0].codons as { codonId: string; status: string }[];
    expect(codons.map((codon) => `${codon.codonId}:${codon.status}`)).toEqual([
      'draft:completed',
      'review:failed',
    ]);
  });
});
