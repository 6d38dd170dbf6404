import { defineProject } from 'vitest/config';

// The int and conformance tests spawn the real Pi CLI; each takes seconds, the idle-timeout one about 5.
export default defineProject({ test: { name: 'pi', testTimeout: 30_000 } });
