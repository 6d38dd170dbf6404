#!/usr/bin/env node
// `pnpm hankweave ...` inside the repository: pnpm runs this bin (there is no root script of that
// name, so pnpm prints no banner of its own), in the directory it was called from. It rebuilds
// whatever is stale, silently when nothing is, then runs the CLI in this process.
import { pathToFileURL } from 'node:url';
import { buildCli } from '../src/build-cli.mjs';
import { CLI_BIN } from '../src/paths.mjs';

const build = await buildCli({
  quiet: true,
  announce: 'hankweave: its sources changed since the last build; rebuilding first:',
});
if (build.code !== 0) process.exit(build.code);
// The commands the CLI prints are then written for this launcher (`pnpm hankweave ...`), or as
// plain `hankweave ...` when that command on PATH is this checkout's CLI.
process.env.HW_CLI_LAUNCHER = 'pnpm';
await import(pathToFileURL(CLI_BIN).href);
