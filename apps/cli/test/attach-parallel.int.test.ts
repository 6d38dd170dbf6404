import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, startCli } from './cli-harness.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/parallel-review/', import.meta.url));

// `--attach` is fed by the WebSocket alone: it learns a parallel block's lanes from the `branch`
// the events carry (issue 36), so the interleaved lines of concurrent branches can be told apart
// as in the run's own plain output.
describe('hankweave --attach on a parallel block', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox?.cleanup());

  it("labels each branch codon's lines with its lane", async () => {
    const hankDir = join(sandbox.root, 'review');
    cpSync(EXAMPLE, hankDir, { recursive: true });
    const run = startCli(
      [
        hankDir,
        join(hankDir, 'data'),
        '--scripted-model',
        join(hankDir, 'model-script.json'),
        '--start-new',
        '--port',
        '0',
        '--json',
      ],
      sandbox.env,
    );
    await run.waitForErrors(/WebSocket: ws:\/\/\S+/, 60_000);
    const executionDir = /Execution: (\S+)/.exec(run.errors())?.[1] as string;
    const attached = startCli(['--attach', '-e', executionDir], sandbox.env);
    expect(await run.exited()).toBe(0);
    expect(await attached.exited()).toBe(0);
    const lines = attached.output().split('\n');
    // Each branch codon's completion names its lane; the codons outside the block have none.
    for (const [lane, codonId] of [
      ['review/style-review', 'style'],
      ['review/facts-review', 'facts'],
      ['review/checks', 'lint'],
    ])
      expect(
        lines.some(
          (line) => line.includes('codon.completed') && line.includes(`[${lane}] ${codonId}`),
        ),
        `${lane} ${codonId} in:\n${attached.output()}`,
      ).toBe(true);
    expect(lines.some((line) => /codon\.completed\s+summary\s/.test(line))).toBe(true);
    // The snapshot after the last codon: nothing runs any more.
    const snapshots = lines.filter((line) => line.includes('state.snapshot'));
    expect(snapshots.at(-1)).toMatch(/snapshot: \d+ completed, total/);
  }, 180_000);
});
