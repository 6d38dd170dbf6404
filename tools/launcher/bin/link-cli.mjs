#!/usr/bin/env node
import { existsSync } from 'node:fs';
// `pnpm run link-cli`: put this checkout's `hankweave` on PATH (see src/link-cli.mjs).
import { linkCli } from '../src/link-cli.mjs';
import { CLI_BIN } from '../src/paths.mjs';

if (!existsSync(CLI_BIN)) {
  process.stderr.write(
    `Error: the CLI is not built (${CLI_BIN} is missing)\n→ Run \`pnpm build\` first.\n`,
  );
  process.exit(1);
}
const result = linkCli();
for (const line of result.lines) process.stdout.write(`${line}\n`);
if (result.hint) process.stdout.write(`→ ${result.hint}\n`);
process.exitCode = result.ok ? 0 : 1;
