import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, toolResults, withWorld } from '../containment-world.js';

/** `rm -rf <real data path>/*` in the agent's shell: nothing of the data goes. */
export function removeRealPathCases(context: ContainmentContext): void {
  it(
    "rm -rf of the data's real path in the shell removes nothing",
    () =>
      withWorld(context, async (world) => {
        world.writeHank([world.codon('attack', 'ATTACK_RM_REAL')]);
        world.snapshot();
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_RM_REAL: [
              { content: [{ bash: `rm -rf ${world.data}/*; chmod 000 ${world.data}; true` }] },
              DONE,
            ],
          }),
        );
        expect(toolResults(run)).toHaveLength(1);
        world.expectContained();
      }),
    context.caseTimeoutMs,
  );
}
