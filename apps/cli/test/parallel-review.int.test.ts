import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, playExample, type Sandbox } from './cli-harness.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/parallel-review/', import.meta.url));

// examples/parallel-review: three reviewers at once, each in its own work tree, merged back; the
// fix-up runs only when the lint branch found problems. Both ways, with the built binary and the
// example's model script (the second way with the lint's results edited to pass).
describe('hankweave on the parallel review example', () => {
  let sandbox: Sandbox;
  const play = async (hankDir: string) => {
    const played = await playExample(hankDir, sandbox.env);
    const statuses = Object.fromEntries(
      played.codons.map((codon) => [codon.codonId, codon.status]),
    );
    return { ...played, statuses };
  };

  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox?.cleanup());

  it('reviews in parallel, merges every review, and fixes what the lint found', async () => {
    const hankDir = join(sandbox.root, 'failing');
    cpSync(EXAMPLE, hankDir, { recursive: true });
    const { run, agentRoot, statuses, codons } = await play(hankDir);
    expect(run.code, run.stderr).toBe(0);
    expect(statuses).toEqual({
      draft: 'completed',
      style: 'completed',
      facts: 'completed',
      lint: 'completed',
      review: 'completed',
      fix: 'completed',
      summary: 'completed',
    });
    // The merge comes after every branch codon, the fix-up after the merge.
    const order = codons.map((codon) => codon.codonId);
    expect(order.slice(0, 1)).toEqual(['draft']);
    expect(order.slice(4)).toEqual(['review', 'fix', 'summary']);
    expect(readFileSync(join(agentRoot, 'reviews/style.md'), 'utf8')).toContain('Short sentences');
    expect(readFileSync(join(agentRoot, 'reviews/facts.md'), 'utf8')).toContain('README');
    expect(readFileSync(join(agentRoot, 'article.md'), 'utf8')).toMatch(/codons\.\n/);
  });

  it('skips the fix-up when the lint branch found nothing', async () => {
    const hankDir = join(sandbox.root, 'passing');
    cpSync(EXAMPLE, hankDir, { recursive: true });
    const scriptPath = join(hankDir, 'model-script.json');
    const script = readFileSync(scriptPath, 'utf8');
    const edited = script.replace(
      /\{\\"failed\\": 2, [^\n]*\]\}\\n/,
      '{\\"failed\\": 0, \\"problems\\": []}\\n',
    );
    expect(edited).not.toBe(script);
    writeFileSync(scriptPath, edited);
    const { run, statuses, agentRoot } = await play(hankDir);
    expect(run.code, run.stderr).toBe(0);
    expect(statuses.fix).toBe('skipped');
    expect(statuses.summary).toBe('completed');
    expect(readFileSync(join(agentRoot, 'article.md'), 'utf8')).not.toMatch(/codons\.\n/);
  });
});
