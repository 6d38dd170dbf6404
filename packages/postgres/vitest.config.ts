import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'postgres',
    // A test of its own server runs initdb: seconds, more on a loaded 2-core machine.
    testTimeout: 60_000,
    // One throwaway Postgres per run (test/global-setup.ts), its URL given to tests by inject().
    globalSetup: ['./test/global-setup.ts'],
  },
});
