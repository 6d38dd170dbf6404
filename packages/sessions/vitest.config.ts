import { defineProject } from 'vitest/config';

// The jq recipe tests spawn real processes: on a loaded 2-core machine one can take over 5 s.
export default defineProject({ test: { name: 'sessions', testTimeout: 30_000 } });
