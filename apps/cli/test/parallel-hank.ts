import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const codon = (id: string) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `TASK_${id.toUpperCase()}: do ${id}`,
  checkpointedFiles: ['**/*.txt'],
});
const writing = (id: string, path: string) => ({
  match: { marker: `TASK_${id.toUpperCase()}` },
  turns: [
    {
      content: [{ write: { path, content: `${id}\n` } }],
      usage: { inputTokens: 100, outputTokens: 20 },
      delayMs: 300,
    },
    { content: [{ text: 'Done.' }], usage: { inputTokens: 120, outputTokens: 5 } },
  ],
});

/**
 * Writes a hank with a parallel block (issue 36) and its model script under `hankDir`: `plan`,
 * then block `review` (named Review) with branches `left` (codon `style`) and `right` (codon
 * `tests`) that each write their own file at once, merged back cleanly, then `ship`. For the
 * tests of how the CLI and the dashboard show branches.
 */
export function writeParallelHank(hankDir: string): {
  hankDir: string;
  dataDir: string;
  script: string;
} {
  const dataDir = join(hankDir, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'input.txt'), 'input\n');
  writeFileSync(
    join(hankDir, 'hank.json'),
    JSON.stringify({
      meta: { name: 'parallel-views', version: '1.0.0' },
      hank: [
        codon('plan'),
        {
          type: 'parallel',
          id: 'review',
          name: 'Review',
          branches: [
            { id: 'left', items: [codon('style')] },
            { id: 'right', items: [codon('tests')] },
          ],
        },
        codon('ship'),
      ],
    }),
  );
  const script = join(hankDir, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      conversations: [
        writing('plan', 'plan.txt'),
        writing('style', 'style.txt'),
        writing('tests', 'tests.txt'),
        writing('ship', 'ship.txt'),
      ],
    }),
  );
  return { hankDir, dataDir, script };
}
