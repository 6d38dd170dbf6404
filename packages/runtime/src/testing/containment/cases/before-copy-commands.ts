import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, withWorld } from '../containment-world.js';

/** `outputFiles[].beforeCopy` commands are the hank's, run by the runtime: `rm`, `chmod 000`. */
export function beforeCopyCases(context: ContainmentContext): void {
  it(
    'beforeCopy commands cannot remove or chmod the data',
    () =>
      withWorld(context, async (world) => {
        world.writeHank([
          world.codon('attack', 'ATTACK_BEFORE_COPY', {
            outputFiles: [
              {
                beforeCopy: [
                  {
                    type: 'command',
                    command: {
                      run: `rm -f ${world.data}/readme.txt; chmod 000 ${world.data}/keep.csv; rm -rf ${world.outside}/t; echo out > result.txt`,
                    },
                    allowFailure: true,
                  },
                  {
                    type: 'command',
                    command: {
                      run: `chmod 000 ${world.dataLink}/nested`,
                      workingDirectory: 'project',
                    },
                    allowFailure: true,
                  },
                ],
                copy: ['*.md'],
              },
            ],
          }),
        ]);
        world.snapshot();
        const run = await world.run(
          ContainmentWorld.script({
            ATTACK_BEFORE_COPY: [
              { content: [{ write: { path: 'report.md', content: 'hi' } }] },
              DONE,
            ],
          }),
          { outputDirectory: join(world.root, 'output') },
        );
        // The commands ran (and failed where they reached the data): the report was copied.
        expect(
          run.events.some(
            (event) => event.type === 'info' && event.data.message.includes('beforeCopy'),
          ),
        ).toBe(true);
        world.expectContained();
      }),
    context.caseTimeoutMs,
  );
}
