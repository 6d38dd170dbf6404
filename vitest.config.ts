import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `pnpm test` runs every package's unit tests in this one Vitest pool, with `--pool=threads
// --no-isolate` from its script: 1.2 min on two cores, against 3.5 for one Vitest per package
// under turbo. The integration tiers stay turbo tasks: they are bound by the CPU the real agents
// take, and one pool of them, two files at a time from any package, was no faster than turbo's
// two lanes (27.2 min, against 26.6 and 27.3 in two CI runs, 2026-11-30; two CLI suites at once
// slow each other by half).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'examples/*', 'tools/*'],
    // Two files at a time on a 2-core machine (Vitest's default would be one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
