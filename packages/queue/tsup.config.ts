import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'job-statuses': 'src/job-statuses.ts',
    testing: 'src/testing.ts',
  },
  format: ['esm'],
  target: 'node20',
  // Declarations come from one tsc --build of every package (tools/launcher/bin/build-types.mjs).
  dts: false,
  sourcemap: true,
  clean: true,
  external: ['vitest'],
});
