import { defineProject } from 'vitest/config';

// Unit tests cover the pure view logic only (no DOM in node), so no Vite plugins are needed.
export default defineProject({
  test: { name: 'dashboard', environment: 'node', include: ['src/**/*.test.ts'] },
});
