import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the dashboard's built assets are: `dist/ui/` beside the bundled CLI (the CLI bundles this
 * server and its build copies the assets there), else this package's own `dist/` (the server
 * running from its source, in this workspace), else the `@hankweave/dashboard` the importer
 * resolves. Undefined when none has an `index.html`: the server still answers its API and says
 * how to build.
 */
export function defaultAssetsDir(): string | undefined {
  const candidates = [
    fileURLToPath(new URL('./ui/', import.meta.url)),
    fileURLToPath(new URL('../dist/', import.meta.url)),
  ];
  try {
    const manifest = createRequire(import.meta.url).resolve('@hankweave/dashboard/package.json');
    candidates.push(join(dirname(manifest), 'dist'));
  } catch {
    // Not installed (the published CLI): only the bundled copy counts.
  }
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}
