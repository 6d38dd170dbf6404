import { defineProject } from 'vitest/config';

// The protocol tests run real runtimes (and one real agent) behind a loopback server.
export default defineProject({
  test: { name: 'server', testTimeout: 120_000, hookTimeout: 120_000 },
});
