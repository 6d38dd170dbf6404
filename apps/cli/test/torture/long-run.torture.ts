import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSummary, planOf, runTorture, tortureEnv } from './torture-run.js';

// The long crash-injection run: `pnpm torture` (TORTURE_KILLS, default 400: 200 targeted, 200
// random; TORTURE_SEED replays a run; TORTURE_REPORT=<file> also writes the summary as JSON).
// Not part of `pnpm test`: its file name does not end in .test.ts.
describe('hankweave under SIGKILL (long torture run)', () => {
  it('loses nothing it acknowledged over every planned kill', async () => {
    const { seed, kills } = tortureEnv(400);
    const plan = planOf(kills);
    console.log(
      `torture: TORTURE_SEED=${seed} TORTURE_KILLS=${kills} plan ${JSON.stringify(plan)}`,
    );
    const summary = await runTorture({ seed, plan, log: (line) => console.log(line) });
    const report = formatSummary(
      summary,
      `TORTURE_SEED=${seed} TORTURE_KILLS=${kills} pnpm torture`,
    );
    console.log(report);
    if (process.env.TORTURE_REPORT)
      writeFileSync(
        process.env.TORTURE_REPORT,
        `${JSON.stringify({ plan, ...summary }, null, 2)}\n`,
      );
    expect(summary.failures.length, report).toBe(0);
  });
});
