import { defineProject } from 'vitest/config';

// No agent runs here (the real-agent tests are in @hankweave/claude-code); the README test starts
// node for the quick start, and replays wait on their recorded pacing.
export default defineProject({ test: { name: 'harness', testTimeout: 30_000 } });
