import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, ofType, withWorld } from '../containment-world.js';

/**
 * A rig `copy` into directories a previous codon's agent replaced by links (to a directory
 * outside the execution, to the data): the runtime's remove-and-copy must not follow them.
 */
export function rigCopySymlinkCases(context: ContainmentContext): void {
  it(
    'a rig copy refuses links a previous codon planted, outside the execution and to the data',
    () =>
      withWorld(context, async (world) => {
        mkdirSync(join(world.hankDir, 'templates'));
        writeFileSync(join(world.hankDir, 'templates', 'chapter.tex'), 'template\n');
        world.writeHank([
          world.codon('plant', 'ATTACK_PLANT_LINKS'),
          world.codon('rig', 'ATTACK_RIG_NEXT', {
            rigSetup: [
              { type: 'copy', copy: { from: 'templates/chapter.tex', to: 'notes/chapter.tex' } },
            ],
          }),
          world.codon('rig-data', 'ATTACK_RIG_DATA', {
            rigSetup: [
              { type: 'copy', copy: { from: 'templates/chapter.tex', to: 'alias/keep.csv' } },
            ],
          }),
        ]);
        world.snapshot();
        const script = ContainmentWorld.script({
          ATTACK_PLANT_LINKS: [
            {
              content: [
                { bash: `ln -s ${world.outside}/t notes; ln -s ${world.data} alias; ls -l` },
              ],
            },
            DONE,
          ],
          ATTACK_RIG_NEXT: [DONE],
          ATTACK_RIG_DATA: [DONE],
        });
        const run = await world.run(script);
        world.expectContained();
        // The rig refused, naming the link; the run stopped there.
        const failures = ofType(run.events, 'rig.setup.failed');
        expect(failures[0]?.data.message).toContain('symbolic link notes');
        expect(run.exitCode).not.toBe(0);
        // The codon that needs the other link fails the same way when it runs on its own.
        const again = await world.run(script, {
          executionDir: run.executionDir,
          startNew: false,
        });
        world.expectContained();
        expect(again.exitCode).not.toBe(0);
      }),
    context.caseTimeoutMs,
  );
}
