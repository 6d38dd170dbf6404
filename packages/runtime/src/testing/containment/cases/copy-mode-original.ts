import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, toolResults, withWorld } from '../containment-world.js';

/**
 * `--copy` (the safer mode, our own error message says): the agent reads the original's path
 * from `../.hankweave/execution-meta.json` and overwrites and deletes its files. Neither the
 * original nor the copy may change, and the execution's own `.hankweave/` is read-only.
 */
export function copyModeOriginalCases(context: ContainmentContext): void {
  it(
    'with --copy, the original found in execution-meta.json, and the copy, stay as they were',
    () =>
      withWorld(context, async (world) => {
        world.writeHank([world.codon('attack', 'ATTACK_COPY_ORIGINAL')]);
        world.snapshot();
        const original = `$(sed -n 's/.*"readOnlySourceResolvedDataPath": "\\(.*\\)".*/\\1/p' ../.hankweave/execution-meta.json)`;
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_COPY_ORIGINAL: [
              {
                content: [
                  {
                    bash: `p="${original}"; echo "original at $p"; echo x > "$p/readme.txt"; rm -f "$p/keep.csv"; echo y > read_only_data_source/readme.txt; rm -f read_only_data_source/keep.csv; echo '{}' > ../.hankweave/execution-meta.json; true`,
                  },
                ],
              },
              DONE,
            ],
          }),
          { copyData: true },
        );
        const [result] = toolResults(run);
        // The agent did find the original's path: the attack is real.
        expect(result?.data.result).toContain(`original at ${world.data}`);
        world.expectContained();
        const copy = join(run.executionDir, 'agentRoot', 'read_only_data_source');
        expect(readFileSync(join(copy, 'readme.txt'), 'utf8')).toBe('the user’s own data\n');
        expect(readFileSync(join(copy, 'keep.csv'), 'utf8')).toContain('Paris');
        const meta = readFileSync(join(run.executionDir, '.hankweave', 'execution-meta.json'));
        expect(JSON.parse(meta.toString()).readOnlySourceResolvedDataPath).toBe(world.data);
      }),
    context.caseTimeoutMs,
  );
}
