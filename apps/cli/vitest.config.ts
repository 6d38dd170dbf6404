import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    // The integration tests run the built binary (dist/bin.js) as a subprocess.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
