// Writes the JSON Schemas of hank.json and sentinel configs from the built zod schemas, so they
// ship at @hankweave/types/schemas/*.schema.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const { buildHankJsonSchema, buildSentinelJsonSchema } = await import('../dist/index.js');
const outDir = fileURLToPath(new URL('../schemas/', import.meta.url));
await mkdir(outDir, { recursive: true });
const files = {
  'hank.schema.json': buildHankJsonSchema(),
  'sentinel.schema.json': buildSentinelJsonSchema(),
};
for (const [file, schema] of Object.entries(files)) {
  await writeFile(`${outDir}${file}`, `${JSON.stringify(schema, null, 2)}\n`);
}
