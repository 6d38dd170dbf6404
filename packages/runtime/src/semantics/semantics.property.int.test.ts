import { describe, it } from 'vitest';
import { assertInParallel } from './assert-in-parallel.js';
import { checkAgainstInterpreter } from './check-against-interpreter.js';
import { semanticsCase } from './semantics-arbitraries.js';

// The runtime against the reference interpreter (@hankweave/hank): generated hanks × generated
// outcomes × the person's resumes and rollbacks, each played by real runtimes (real state files,
// journal, checkpoints) on the outcome agent. What the runtime executed, how each run stopped and
// how each loop ended must equal what the interpreter says. RUNS and SEED come from the
// environment for the long run outside CI (RELIABILITY.md); what a long run finds is kept in
// semantics.found.int.test.ts.
const RUNS = Number(process.env.HANKWEAVE_SEMANTICS_RUNS ?? 2000);
const SEED = Number(process.env.HANKWEAVE_SEMANTICS_SEED ?? 20261129);

describe('the runtime executes what the reference interpreter says', () => {
  it(
    `for ${RUNS} generated hanks, outcomes and steps (seed ${SEED})`,
    async () => {
      // Four cases in flight: each waits on its disk most of the time.
      await assertInParallel(semanticsCase(), checkAgainstInterpreter, {
        numRuns: RUNS,
        seed: SEED,
        concurrency: 4,
      });
    },
    Math.max(600_000, RUNS * 1_000),
  );
});
