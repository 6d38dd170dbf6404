import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, withWorld } from '../containment-world.js';

/**
 * The agent replaces the next codon's prompt file (in the hank directory) by a FIFO: the hank
 * directory is read-only to it, and the runtime never blocks on a FIFO anyway (the run ends).
 */
export function promptFifoCases(context: ContainmentContext): void {
  it(
    "the agent cannot change the hank's files, and a FIFO prompt would not hang the run",
    () =>
      withWorld(context, async (world) => {
        mkdirSync(join(world.hankDir, 'prompts'));
        writeFileSync(join(world.hankDir, 'prompts', 'next.md'), 'ATTACK_FIFO_NEXT: go on.\n');
        const prompt = join(world.hankDir, 'prompts', 'next.md');
        world.writeHank([
          world.codon('plant', 'ATTACK_FIFO_PLANT'),
          {
            ...world.codon('next', 'unused'),
            promptText: undefined,
            promptFile: 'prompts/next.md',
          },
        ]);
        world.snapshot();
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_FIFO_PLANT: [
              {
                content: [
                  {
                    bash: `rm -f ${prompt}; mkfifo ${prompt}; echo x >> ${join(world.hankDir, 'hank.json')}; true`,
                  },
                ],
              },
              DONE,
            ],
            ATTACK_FIFO_NEXT: [DONE],
          }),
        );
        world.expectContained();
        expect(run.exitCode).toBe(0);
      }),
    context.caseTimeoutMs,
  );
}
