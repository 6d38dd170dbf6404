import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { withQueueOptions } from '../queue/queue-flags.js';
import { collect } from './collect.js';
import type { OptionsOf } from './command-context.js';

export const declare = (program: CommandUnknownOpts) =>
  withQueueOptions(
    program
      .command('submit')
      .description('queue a hank run for the workers of a fleet; prints the job id')
      .argument('<hank>', 'hank.json, or a directory holding one (on storage every worker sees)')
      .argument('<data>', 'the data the agents read (on storage every worker sees)'),
  )
    .option('--scripted-model <script.json>', 'dry run: the worker answers the agent from a script')
    .option('-m, --model <id>', 'use this model for every codon')
    .option('--max-cost <usd>', 'a dollar ceiling for the whole hank (> 0)')
    .option('--max-time <seconds>', 'a time ceiling for the whole hank (> 0)')
    .option(
      '--env <names>',
      "variables the run needs from each worker's environment (names only; repeatable)",
      collect,
    )
    .option('-e, --execution <dir>', 'run in this execution directory (resumed when it exists)')
    .option('--base <dir>', 'fix the execution directory now as <dir>/jobs/<id>')
    .option('--copy', 'copy the data into the execution instead of linking it')
    .option('--json', 'print {jobId, queue, hank, data} as JSON');

/** The flags of `hankweave submit`, inferred from their declaration. */
export type SubmitOptions = OptionsOf<typeof declare>;
