import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'postgres',
    // One throwaway Postgres per run (test/global-setup.ts), its URL given to tests by inject().
    globalSetup: ['./test/global-setup.ts'],
  },
});
