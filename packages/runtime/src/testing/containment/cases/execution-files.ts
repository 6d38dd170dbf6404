import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, toolResults, withWorld } from '../containment-world.js';

/**
 * The execution's own `.hankweave/` (state, journal, checkpoints, metadata) and other executions
 * are read-only to the agent: it cannot rewrite its history nor touch another run.
 */
export function executionFilesCases(context: ContainmentContext): void {
  it(
    "the agent cannot change its execution's records or another execution",
    () =>
      withWorld(context, async (world) => {
        world.writeHank([world.codon('attack', 'ATTACK_RECORDS')]);
        world.snapshot();
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_RECORDS: [
              {
                content: [
                  {
                    bash: `echo '{}' > ../.hankweave/state.json; rm -rf ../.hankweave/events ../.hankweave/checkpoints; rm -rf ${world.other}/agentRoot; echo x > ${world.other}/.hankweave/state.json; true`,
                  },
                ],
              },
              DONE,
            ],
          }),
        );
        expect(toolResults(run)).toHaveLength(1);
        world.expectContained();
        expect(run.exitCode).toBe(0);
        const state = JSON.parse(
          readFileSync(join(run.executionDir, '.hankweave', 'state.json'), 'utf8'),
        ) as { runs: unknown[] };
        expect(state.runs).toHaveLength(1);
        const journal = readFileSync(
          join(run.executionDir, '.hankweave', 'events', 'events.jsonl'),
          'utf8',
        );
        expect(journal).toContain('"codon.completed"');
      }),
    context.caseTimeoutMs,
  );
}
