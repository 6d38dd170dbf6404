import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'files', testTimeout: 30_000 } });
