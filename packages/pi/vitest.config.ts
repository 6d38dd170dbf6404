import { defineProject } from 'vitest/config';

// The int and conformance tests spawn the real Pi CLI; each takes seconds, the idle-timeout one about 5.
// The conformance cases run concurrently: two Pi start-ups at a time, not Vitest's five. A CI run
// with five at once beside another package's suite waited over 15 s for Pi's first request.
export default defineProject({ test: { name: 'pi', testTimeout: 30_000, maxConcurrency: 2 } });
