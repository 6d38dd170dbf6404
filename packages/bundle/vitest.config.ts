import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'bundle', testTimeout: 30_000 } });
