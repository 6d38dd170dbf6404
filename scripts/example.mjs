// The main job for now: validate the bundled example hank with @hankweave/types, strictly
// (file references checked on disk). A later issue turns this into a real offline run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateHank } from '@hankweave/types';

const hankDir = fileURLToPath(new URL('../examples/hello-hank/', import.meta.url));
const config = JSON.parse(readFileSync(`${hankDir}hank.json`, 'utf8'));
const result = validateHank(config, { hankDir });
for (const warning of result.warnings) console.log(`warning  ${warning.path}: ${warning.message}`);
for (const error of result.errors) console.error(`error    ${error.path}: ${error.message}`);
if (!result.valid) process.exit(1);
const codons = result.config.hank.flatMap((item) => (item.type === 'loop' ? item.codons : [item]));
console.log(
  `examples/hello-hank/hank.json is valid: ${result.config.hank.length} items, ${codons.length} codons (${codons.map((c) => c.id).join(', ')}).`,
);
