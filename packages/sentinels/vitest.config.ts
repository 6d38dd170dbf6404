import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'sentinels', testTimeout: 30_000 } });
