import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'queue',
    // One throwaway Redis per run (test/global-setup.ts), its URL given to tests by inject().
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
