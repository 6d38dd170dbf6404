import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, executionDirOf, runCli, type Sandbox, stripAnsi } from './cli-harness.js';

// --max-cost on the built binary with a dry run (reference §1.7, §2.2): the example's first turn
// costs more than $0.005, so the watchdog stops the first codon within that turn; the hank's
// budget is then spent, the other codons do not run, and the summary, `status` and `--json` say so.
describe('hankweave --max-cost', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;
  let executionDir: string;
  let output: string;
  let code: number | null;

  beforeAll(async () => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    const run = await runCli(
      [
        example.hankDir,
        example.dataDir,
        '--scripted-model',
        example.script,
        '--start-new',
        '--headless',
        '--max-cost',
        '0.005',
      ],
      { env: sandbox.env, cwd: sandbox.root },
    );
    code = run.code;
    output = stripAnsi(run.stdout);
    executionDir = executionDirOf(output);
  });
  afterAll(() => sandbox.cleanup());

  it('stops the first codon at the ceiling and runs no other; the summary shows the spent budget', () => {
    expect(code).toBe(0);
    expect(output).toMatch(/the budget is spent \(remaining codons not run\)/);
    expect(output).toMatch(
      /Budget\s+1 codon\(s\) stopped by a budget: observe \(cost \$0\.\d{4} > \$0\.0050\)/,
    );
    expect(output).not.toMatch(/summarize.*completed/);
  });

  it('status and status --json show the codon a budget stopped', async () => {
    const status = await runCli(['status', '-e', executionDir], { env: sandbox.env });
    expect(status.code).toBe(0);
    expect(stripAnsi(status.stdout)).toMatch(/Budget\s+1 codon\(s\) stopped by a budget: observe/);
    const json = await runCli(['status', '-e', executionDir, '--json'], { env: sandbox.env });
    const parsed = JSON.parse(json.stdout) as {
      codons: { codonId: string; status: string; budgetExceeded?: unknown }[];
    };
    expect(parsed.codons[0]).toMatchObject({ codonId: 'observe', status: 'completed' });
    // Nothing after it ran.
    expect(parsed.codons.slice(1).map((codon) => codon.status)).toEqual(
      parsed.codons.slice(1).map(() => 'pending'),
    );
    expect(parsed.codons.length).toBeGreaterThan(1);
    expect(parsed.codons[0]?.budgetExceeded).toMatchObject({ currency: 'cost', limit: 0.005 });
  });

  it('the journal (what --json prints) has budgetExceeded and the budget.summary', async () => {
    const events = await runCli(
      [
        'events',
        '-e',
        executionDir,
        '--json',
        '--tail',
        'all',
        '--type',
        'codon.completed,budget.summary',
      ],
      { env: sandbox.env },
    );
    const lines = events.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    expect(lines.map((line) => line.type)).toEqual(['codon.completed', 'budget.summary']);
    expect(lines[0]?.data.budgetExceeded).toMatchObject({ currency: 'cost', limit: 0.005 });
    expect(lines[1]?.data).toMatchObject({ ceiling: { maxDollars: 0.005 }, allocation: 'shared' });
  });

  it('refuses a ceiling that is not a number > 0', async () => {
    const run = await runCli([example.hankDir, example.dataDir, '--max-cost', '0'], {
      env: sandbox.env,
      cwd: sandbox.root,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--max-cost expects a number > 0/);
  });
});

describe('hankweave validate with budgets', () => {
  it('prints the budget table and the budget warnings', async () => {
    const sandbox = createSandbox();
    try {
      const example = sandbox.copyExample();
      const file = join(example.hankDir, 'hank.json');
      const hank = JSON.parse(readFileSync(file, 'utf8'));
      hank.overrides = { ...hank.overrides, budget: { maxDollars: 0.5, onExceeded: 'complete' } };
      hank.hank[0].budget = { maxDollars: 2, maxOutputTokens: 4000 };
      writeFileSync(file, JSON.stringify(hank, null, 2));
      const run = await runCli(['validate', example.hankDir], { env: sandbox.env });
      expect(run.code).toBe(0);
      const out = stripAnsi(run.stdout);
      expect(out).toMatch(/Budgets\n {2}hank: \$0\.5, shared, onExceeded complete\n/);
      expect(out).toMatch(/observe\s+\$2\s+-\s+4000\s+-\s+-/);
      expect(out).toMatch(/hank\[0\]\.budget\.maxDollars: maxDollars 2 is more than the 0\.5/);
    } finally {
      sandbox.cleanup();
    }
  });
});
