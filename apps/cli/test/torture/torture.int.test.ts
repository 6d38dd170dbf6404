import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSummary, KILL_KINDS, runTorture, tortureEnv } from './torture-run.js';

// The short crash-injection run of `pnpm test` (issue 16): real hankweave processes on the
// scripted model, the whole process tree SIGKILLed right after acknowledgements and at random
// moments, every invariant checked after every kill. The long run is `pnpm torture`.
// The tree kill reads /proc: Linux only (CI and the project's machines are Linux).
describe.skipIf(!existsSync('/proc/self/stat'))(
  'hankweave under SIGKILL (short torture run)',
  () => {
    it('loses nothing it acknowledged and completes every hank with the files of a clean run', async () => {
      const { seed } = tortureEnv(1);
      const plan = { completion: 8, rollback: 2, checkpoint: 2, transition: 2, tool: 2, random: 8 };
      console.log(`torture: TORTURE_SEED=${seed}`);
      // Only the summary is printed (failures in it, with the seed and the kill): per-kill
      // progress is the long run's.
      const summary = await runTorture({ seed, plan });
      const report = formatSummary(
        summary,
        `TORTURE_SEED=${seed} pnpm --filter hankweave exec vitest run test/torture`,
      );
      console.log(report);
      // Every planned kill was injected: a run that killed nothing would prove nothing.
      for (const kind of KILL_KINDS)
        expect(summary.kills[kind], `${kind} kills\n${report}`).toBeGreaterThanOrEqual(plan[kind]);
      expect(summary.completionsVerified, report).toBeGreaterThan(0);
      expect(summary.failures.length, report).toBe(0);
    }, 300_000);
  },
);
