import { defineConfig } from 'vitest/config';

// `pnpm torture`: the long crash-injection run alone, with no time limit but its own.
export default defineConfig({
  test: {
    include: ['test/torture/long-run.torture.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 6 * 60 * 60 * 1000,
    hookTimeout: 60_000,
  },
});
