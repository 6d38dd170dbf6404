import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, toolResults, withWorld } from '../containment-world.js';

/**
 * A link the agent makes in its own working directory, to `read_only_data_source` or to the data's
 * real path, then writes through: the link is allowed, the write is not.
 */
export function symlinkToDataCases(context: ContainmentContext): void {
  it(
    'a write through a symlink the agent made to the data changes nothing',
    () =>
      withWorld(context, async (world) => {
        world.writeHank([world.codon('attack', 'ATTACK_SYMLINK')]);
        world.snapshot();
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_SYMLINK: [
              {
                content: [
                  {
                    bash: `ln -s read_only_data_source mine; echo x > mine/readme.txt; ln -s ${world.data} real; echo y > real/new.txt; rm -f real/keep.csv; true`,
                  },
                ],
              },
              { content: [{ write: { path: 'mine/keep.csv', content: 'overwritten' } }] },
              DONE,
            ],
          }),
        );
        expect(toolResults(run)).toHaveLength(2);
        world.expectContained();
      }),
    context.caseTimeoutMs,
  );
}
