import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'journal', testTimeout: 30_000 } });
