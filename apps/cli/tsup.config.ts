import { cpSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'tsup';

/**
 * `hankweave ui` serves the dashboard from `dist/ui/`: copy the built web app there (it is built
 * by `pnpm --filter @hankweave/dashboard build`). Without a build the CLI still works, and the
 * server's root page says how to build it.
 */
function copyDashboard(): void {
  const dashboard = join(
    dirname(createRequire(import.meta.url).resolve('@hankweave/dashboard/package.json')),
    'dist',
  );
  if (existsSync(join(dashboard, 'index.html')))
    cpSync(dashboard, join('dist', 'ui'), { recursive: true });
  else console.warn(`hankweave ui: no dashboard build at ${dashboard} (dist/ui/ not copied)`);
}

export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'node20',
  dts: false,
  sourcemap: true,
  clean: true,
  banner: { js: '#!/usr/bin/env node' },
  onSuccess: async () => copyDashboard(),
});
