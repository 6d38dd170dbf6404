import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from '@hankweave/durable-io';
import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, toolResults, withWorld } from '../containment-world.js';
import { processesWith } from '../surviving-processes.js';

/**
 * A `setsid nohup` process the agent starts to act after its codon: it must die with the codon,
 * not delete a data file seconds after "exit 0". A rig command tries the same.
 */
export function backgroundProcessCases(context: ContainmentContext): void {
  it(
    'nothing the codon started outlives it (setsid nohup in the agent and in a rig command)',
    () =>
      withWorld(context, async (world) => {
        const later = (what: string) =>
          `setsid nohup sh -c 'sleep 2; ${what}; : ${world.token}' >/dev/null 2>&1 < /dev/null &`;
        world.writeHank([
          world.codon('attack', 'ATTACK_BACKGROUND', {
            rigSetup: [
              {
                type: 'command',
                command: { run: later(`rm -f ${world.outside}/thesis.tex`) },
              },
            ],
          }),
        ]);
        world.snapshot();
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_BACKGROUND: [
              {
                content: [
                  {
                    bash: `${later(`rm -f ${world.data}/readme.txt; echo late > late.txt`)} echo started`,
                  },
                ],
              },
              DONE,
            ],
          }),
        );
        expect(toolResults(run)[0]?.data.result).toContain('started');
        expect(run.exitCode).toBe(0);
        // Right after the run nothing of the attack lives; after the delays nothing has acted.
        expect(processesWith(world.token)).toEqual([]);
        await sleep(3000);
        expect(existsSync(join(run.executionDir, 'agentRoot', 'late.txt'))).toBe(false);
        world.expectContained();
      }),
    context.caseTimeoutMs,
  );
}
