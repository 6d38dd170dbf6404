import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createRuntime } from '../../../runtime/create-runtime.js';
import type { ContainmentContext } from '../containment-setup.js';
import { ContainmentWorld, DONE, withWorld } from '../containment-world.js';

// The rig copies `templates/chapter.tex` to `work/chapter.tex`; the agent then replaces `work`
// by a link to the outside directory, which holds a `chapter.tex` of its own. A rollback's rig
// cleanup removes `work/chapter.tex`: through the link, the user's file.
const plantInRig = (world: ContainmentWorld, extra: Record<string, unknown> = {}) => {
  mkdirSync(join(world.hankDir, 'templates'), { recursive: true });
  writeFileSync(join(world.hankDir, 'templates', 'chapter.tex'), 'template\n');
  return world.codon('first', 'ATTACK_ROLLBACK_PLANT', {
    rigSetup: [{ type: 'copy', copy: { from: 'templates/chapter.tex', to: 'work/chapter.tex' } }],
    ...extra,
  });
};
const planting = (world: ContainmentWorld) => ({
  content: [{ bash: `rm -rf work; ln -s ${world.outside}/t work; ls -l` }],
});

/** Rollback's rig cleanup, on command and automatically after a failed run, never follows links. */
export function rollbackSymlinkCases(context: ContainmentContext): void {
  it(
    "a rollback's rig cleanup does not delete through a link the agent planted",
    () =>
      withWorld(context, async (world) => {
        world.writeHank([plantInRig(world), world.codon('second', 'ATTACK_ROLLBACK_SECOND')]);
        world.snapshot();
        const script = ContainmentWorld.script({
          ATTACK_ROLLBACK_PLANT: [planting(world), DONE],
          ATTACK_ROLLBACK_SECOND: [DONE],
        });
        const run = await world.run(script);
        expect(run.exitCode).toBe(0);
        // A rollback on command to the initial checkpoint undoes `first`, and its rig copy.
        const served = await context.harness.serve(script);
        try {
          const runtime = createRuntime({
            hankPath: join(world.hankDir, 'hank.json'),
            dataPath: world.dataLink,
            executionDir: run.executionDir,
            env: context.harness.env(world.home),
            headless: true,
            autostart: false,
            sandbox: context.harness.sandbox ?? 'require',
            ...served.options,
          });
          await runtime.start();
          const initial = runtime.getState().initialCheckpoint as string;
          await runtime.command({
            type: 'rollback.toCheckpoint',
            data: { checkpointSha: initial },
          });
          await runtime.close();
        } finally {
          await served.close();
        }
        world.expectContained();
      }),
    context.caseTimeoutMs,
  );

  it(
    'the automatic rollback after a failed run does not delete through it either',
    () =>
      withWorld(context, async (world) => {
        world.writeHank([plantInRig(world, { onFailure: 'abort' })]);
        world.snapshot();
        const failing = ContainmentWorld.script({
          ATTACK_ROLLBACK_PLANT: [
            planting(world),
            { fail: { kind: 'http-error', status: 400, type: 'invalid_request_error' } },
          ],
        });
        const run = await world.run(failing);
        expect(run.exitCode).not.toBe(0);
        // The next start finds the failed run and rolls back to the last success first.
        const again = await world.run(ContainmentWorld.script({ ATTACK_ROLLBACK_PLANT: [DONE] }), {
          executionDir: run.executionDir,
        });
        expect(again.events.some((event) => event.type === 'rollback.completed')).toBe(true);
        world.expectContained();
      }),
    context.caseTimeoutMs,
  );
}
