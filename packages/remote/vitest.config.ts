import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'remote', testTimeout: 30_000 } });
