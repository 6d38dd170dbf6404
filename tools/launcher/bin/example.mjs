#!/usr/bin/env node
// `pnpm example`, the README's first command after the install: build the CLI (a line per
// package), put `hankweave` on PATH, then run examples/hello-hank offline. `--no-link` skips the
// second step.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildCli } from '../src/build-cli.mjs';
import { linkCli } from '../src/link-cli.mjs';
import { CLI_BIN, REPO_ROOT } from '../src/paths.mjs';

const color =
  process.stdout.isTTY && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
const bold = (text) => (color ? `\u001b[1m${text}\u001b[22m` : text);
const dim = (text) => (color ? `\u001b[2m${text}\u001b[22m` : text);
const out = (line = '') => process.stdout.write(`${line}\n`);
const link = !process.argv.includes('--no-link');
const stages = link ? 3 : 2;

out(
  bold(`[1/${stages}] Building the hankweave CLI and the packages it uses`) +
    dim(' (the first build takes under a minute on 2 cores)'),
);
const build = await buildCli({ print: out });
if (build.code !== 0) process.exit(build.code);
if (build.built.length === 0) out(`  all ${build.total} package(s) are up to date`);

let onPath = false;
if (link) {
  out(bold(`[2/${stages}] Putting hankweave on your PATH`));
  const result = linkCli();
  for (const line of result.lines) out(`  ${line}`);
  if (result.hint) out(`  → ${result.hint}`);
  onPath = result.onPath === true;
}

const example = 'examples/hello-hank';
out(
  bold(`[${stages}/${stages}] Running ${example} offline`) +
    dim(' (the real Claude Code agent, answered by a local scripted model)'),
);
out();
const child = spawn(
  process.execPath,
  [
    CLI_BIN,
    example,
    join(example, 'data'),
    '--scripted-model',
    join(example, 'model-script.json'),
    '--start-new',
  ],
  { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, HW_CLI_LAUNCHER: 'pnpm' } },
);
// Ctrl-C reaches the CLI too (same process group); wait for it to stop the run and summarise.
const ignore = () => {};
process.on('SIGINT', ignore);
process.on('SIGTERM', () => child.kill('SIGTERM'));
const code = await new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
process.off('SIGINT', ignore);
if (code === 0) {
  const cli = onPath ? 'hankweave' : 'pnpm hankweave';
  const rows = [
    [cli, 'a guided start: pick or create a hank, choose the data and a model, run'],
    [`${cli} init my-hank`, 'or scaffold a sample hank, then run it offline:'],
    [`${cli} my-hank my-hank/data --scripted-model my-hank/model-script.json`, ''],
  ];
  const width = Math.max(...rows.slice(0, 2).map(([command]) => command.length)) + 3;
  out();
  out(bold('Your own hank next') + (onPath ? ', from any directory:' : ' (in this checkout):'));
  for (const [command, what] of rows)
    out(`  ${what ? command.padEnd(width) + dim(what) : command}`);
}
process.exit(code);
