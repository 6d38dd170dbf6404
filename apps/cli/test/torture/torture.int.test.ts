import { existsSync } from 'node:fs';
import { testDepth } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { formatSummary, KILL_KINDS, runTorture, tortureEnv } from './torture-run.js';

// The short crash-injection run of `pnpm test:int` (issue 16): real hankweave processes on the
// scripted model, the whole process tree SIGKILLed right after acknowledgements and at random
// moments, every invariant checked after every kill. 12 kills in CI, 24 in `pnpm test:long`
// (HANKWEAVE_TEST_DEPTH=long); the long run is `pnpm torture` (400 kills).
const PLAN =
  testDepth() === 'long'
    ? { completion: 8, rollback: 2, checkpoint: 2, transition: 2, tool: 2, random: 8 }
    : { completion: 4, rollback: 1, checkpoint: 1, transition: 1, tool: 1, random: 4 };
// The tree kill reads /proc: Linux only (CI and the project's machines are Linux).
describe.skipIf(!existsSync('/proc/self/stat'))(
  'hankweave under SIGKILL (short torture run)',
  () => {
    it('loses nothing it acknowledged and completes every hank with the files of a clean run', async () => {
      const { seed } = tortureEnv(1);
      console.log(`torture: TORTURE_SEED=${seed}`);
      // Only the summary is printed (failures in it, with the seed and the kill): per-kill
      // progress is the long run's.
      const summary = await runTorture({ seed, plan: PLAN });
      const report = formatSummary(
        summary,
        `TORTURE_SEED=${seed} pnpm --filter hankweave exec vitest run test/torture`,
      );
      console.log(report);
      // Every planned kill was injected: a run that killed nothing would prove nothing.
      for (const kind of KILL_KINDS)
        expect(summary.kills[kind], `${kind} kills\n${report}`).toBeGreaterThanOrEqual(PLAN[kind]);
      expect(summary.completionsVerified, report).toBeGreaterThan(0);
      expect(summary.failures.length, report).toBe(0);
    }, 300_000);
  },
);
