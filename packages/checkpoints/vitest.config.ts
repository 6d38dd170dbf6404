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
  test: { name: 'checkpoints' },
});
