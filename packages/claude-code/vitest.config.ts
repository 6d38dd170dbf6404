import { defineProject } from 'vitest/config';

// Real-agent tests spawn Claude Code; each takes seconds, the idle-timeout one about 4.
export default defineProject({ test: { name: 'claude-code', testTimeout: 30_000 } });
