import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'durable-io', testTimeout: 30_000 } });
