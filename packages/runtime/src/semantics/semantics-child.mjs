// Child of the semantics kill property: runs one case's runtime once, printing a line per
// journaled event, so the parent can SIGKILL it at a chosen point. Imports the built package
// (`pnpm build` runs before the tests).
import { readFileSync } from 'node:fs';
import { caseRuntime, stopOf } from '../../dist/testing.js';

const [caseFile, dir] = process.argv.slice(2);
const semantics = JSON.parse(readFileSync(caseFile, 'utf8'));
const runtime = caseRuntime(semantics, dir);
let count = 0;
runtime.on((event) => {
  count++;
  process.stdout.write(`EVENT ${count} ${event.type}\n`);
});
await runtime.start();
const exit = await runtime.finished;
process.stdout.write(`STOP ${stopOf(exit)}\n`);
