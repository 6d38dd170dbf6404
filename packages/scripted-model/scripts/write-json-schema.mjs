// Writes the script format's JSON Schema from the built zod schema, so that it ships at
// @hankweave/scripted-model/schemas/script.schema.json (editors validate scripts against it).
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const { buildScriptJsonSchema } = await import('../dist/index.js');
const outDir = fileURLToPath(new URL('../schemas/', import.meta.url));
await mkdir(outDir, { recursive: true });
await writeFile(
  `${outDir}script.schema.json`,
  `${JSON.stringify(buildScriptJsonSchema(), null, 2)}\n`,
);
