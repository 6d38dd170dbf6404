import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { SAMPLE_DATA_DIR } from '../init/sample-hank.js';
import { writeSampleHank } from '../init/write-sample-hank.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { shellArg } from '../output/summary.js';
import type { Terminal } from '../output/terminal.js';
import type { CommandContext, OptionsOf } from './command-context.js';

const declare = (program: CommandUnknownOpts) =>
  program
    .command('init')
    .description('scaffold a sample hank (prompts, data, model script) that runs offline at once')
    .argument('[dir]', 'where to create it (default: the current directory, which must be empty)')
    .option('-f, --force', 'write into a non-empty directory');

/** The flags of `hankweave init`, inferred from their declaration. */
export type InitOptions = OptionsOf<typeof declare>;

/** Adds `hankweave init [dir]` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action((dir, options) => done(initCommand(terminal, dir, options)));
}

/**
 * `hankweave init [dir]`: scaffolds a sample hank (prompts, data, a model script) that runs
 * offline at once with `hankweave <dir> <dir>/data --scripted-model <dir>/model-script.json`.
 * The printed commands pass the data folder explicitly: with the hank directory as the data,
 * editing a prompt would change the data hash and the next run would not resume.
 */
export function initCommand(
  terminal: Terminal,
  dirArg: string | undefined,
  options: InitOptions,
): number {
  const dir = resolve(dirArg ?? '.');
  if (existsSync(dir) && readdirSync(dir).length > 0 && !options.force) {
    throw new CliError(
      'CLI_USAGE',
      `${dir} is not empty`,
      `Pass a new or empty directory (\`${commandHint('init', 'my-hank')}\`), or --force to write the sample files into it anyway.`,
    );
  }
  const files = writeSampleHank(dir);
  const { style } = terminal;
  const shown = relative(process.cwd(), dir) || '.';
  const arg = shellArg(shown);
  const data = shellArg(join(shown, SAMPLE_DATA_DIR));
  terminal.out(`${style.green('✓')} Created a sample hank in ${dir}:`);
  for (const path of files) terminal.out(`    ${path}`);
  terminal.out();
  terminal.out(
    'Run it offline now (the real Claude Code agent, answered by a local scripted model):',
  );
  terminal.out(
    `    ${style.bold(commandHint(arg, data, '--scripted-model', shellArg(join(shown, 'model-script.json'))))}`,
  );
  terminal.out('Run it for real (needs ANTHROPIC_API_KEY):');
  terminal.out(`    ${commandHint(arg, data)}`);
  terminal.out(
    style.dim(
      `The data is ${join(shown, SAMPLE_DATA_DIR)}: edit the prompts freely, the next run resumes the same execution.`,
    ),
  );
  return 0;
}
