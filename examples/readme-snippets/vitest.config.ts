import { defineProject } from 'vitest/config';

// Snippets start servers and agents of their own: give them time, one file at a time.
export default defineProject({ test: { name: 'readme-snippets', testTimeout: 60_000 } });
