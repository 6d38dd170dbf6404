import { defineProject } from 'vitest/config';

// The real agent takes seconds per run, more when several share two cores; the agent tests run
// concurrently within a file, four at a time (about 200 MB each).
export default defineProject({
  test: { name: 'scripted-model', testTimeout: 90_000, maxConcurrency: 4 },
});
