import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'state', testTimeout: 30_000 } });
