import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  // The README quick start imports the package by name; test it against the source.
  resolve: {
    alias: [
      {
        find: /^@hankweave\/checkpoints$/,
        replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      },
    ],
  },
  // Interop tests run native git on thousands of files: seconds each, more on a loaded machine.
  test: { name: 'checkpoints', testTimeout: 30_000 },
});
