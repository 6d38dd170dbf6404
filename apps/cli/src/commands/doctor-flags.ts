import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  program
    .command('doctor')
    .description(
      'check every model a hank uses: its harness installed and starting, its key accepted, one minimal request answered',
    )
    .argument('[hank]', 'hank.json, a directory holding one, or a git URL (default: ./hank.json)')
    .option('-m, --model <id>', 'check this model in place of every codon model (as a run with -m)')
    .option('--anthropic-base-url <url>', 'the Messages API endpoint Claude Code is sent to')
    .option('--json', 'print the results as JSON');

/** The flags of `hankweave doctor`, inferred from their declaration. */
export type DoctorOptions = OptionsOf<typeof declare>;
