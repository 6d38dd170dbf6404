import { defineProject } from 'vitest/config';

// Unit tests (`pnpm test`): the web app's pure view logic and the server's, in node (no DOM, so
// no Vite plugins). The integration tests have their own config (vitest.int.config.ts).
export default defineProject({
  test: {
    name: 'dashboard',
    environment: 'node',
    include: ['src/**/*.test.ts', 'server/**/*.test.ts'],
    exclude: ['**/*.int.test.ts'],
  },
});
