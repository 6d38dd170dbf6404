// Writes the JSON Schemas of hank.json and sentinel configs from the built zod schemas.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const types = await import('../dist/index.js');
const outDir = fileURLToPath(new URL('../schemas/', import.meta.url));
await mkdir(outDir, { recursive: true });
for (const [file, build] of Object.entries(types.jsonSchemaBuilders ?? {})) {
  await writeFile(`${outDir}${file}`, `${JSON.stringify(build(), null, 2)}\n`);
}
