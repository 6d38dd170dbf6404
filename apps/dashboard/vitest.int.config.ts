import { defineProject } from 'vitest/config';

// Integration tests (`pnpm test:int`): the server over real HTTP on loopback and the app in
// Chromium, on executions the built CLI makes with the scripted model. The global setup builds
// the app and the CLI when they are older than their sources.
export default defineProject({
  test: {
    name: 'dashboard-int',
    environment: 'node',
    include: ['test/**/*.int.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
