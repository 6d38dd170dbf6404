import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, toolResults, withWorld } from '../containment-world.js';

/**
 * The agent's own write tool aimed at the data's real absolute path (the data is a symlink; the
 * deny rules only know `read_only_data_source`): it must fail, the data untouched.
 */
export function writeRealPathCases(context: ContainmentContext): void {
  it(
    "a write to the data's real absolute path changes nothing",
    () =>
      withWorld(context, async (world) => {
        world.writeHank([world.codon('attack', 'ATTACK_WRITE_REAL')]);
        world.snapshot();
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_WRITE_REAL: [
              {
                content: [
                  { write: { path: join(world.data, 'readme.txt'), content: 'overwritten' } },
                ],
              },
              {
                content: [
                  { write: { path: join(world.data, 'nested', 'planted.txt'), content: 'x' } },
                ],
              },
              DONE,
            ],
          }),
        );
        // Both tool calls ran (and failed): the attack was made, not skipped.
        expect(toolResults(run)).toHaveLength(2);
        world.expectContained();
      }),
    context.caseTimeoutMs,
  );
}
