// `pnpm --filter @hankweave/types catalog:refresh`: rewrites src/models/pi-registry-data.ts from
// the installed @mariozechner/pi-ai (this package's devDependency, pinned to the version
// @hankweave/pi runs), formatted by the workspace's Biome so `biome check` passes as written.
// Same pi-ai, same file: the rows are sorted and nothing else goes in.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPiRegistry, piRegistryRows, renderPiRegistryData } from './pi-registry-rows.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, '..', 'src', 'models', 'pi-registry-data.ts');
const { version, models } = await loadPiRegistry();
const rows = piRegistryRows(models);
const text = renderPiRegistryData(rows, version);
const biome = join(here, '..', '..', '..', 'node_modules', '.bin', 'biome');
const formatted = execFileSync(biome, ['format', `--stdin-file-path=${target}`], {
  input: text,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
writeFileSync(target, formatted);
const providers = new Set(rows.map((row) => row[0]));
process.stdout.write(
  `Wrote ${rows.length} models of ${providers.size} providers (pi-ai ${version}) to ${target}\n`,
);
