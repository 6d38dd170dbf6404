import { defineProject } from 'vitest/config';

// The end-to-end tests run the real agent: they need time, and each file runs its own hank.
export default defineProject({
  test: {
    name: 'runtime',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    setupFiles: ['./test/cleanup-temp-dirs.ts'],
  },
});
