import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { TELEMETRY_ENV } from '@hankweave/telemetry/env';
import { withExecutionOptions } from '../execution/execution-options.js';
import type { OptionsOf } from './command-context.js';

export const declareTraces = (program: CommandUnknownOpts) =>
  program
    .command('traces')
    .description("OpenTelemetry traces of an execution's journal (traces export)");

export const declareExport = (traces: CommandUnknownOpts) =>
  withExecutionOptions(
    traces
      .command('export')
      .description(
        `send an execution's journal (finished, past or replayed) as OpenTelemetry traces to $${TELEMETRY_ENV.endpoint}`,
      ),
  )
    .option(
      '--capture-content',
      `put answers, thinking and tool payloads on the spans (they may hold secrets; also $${TELEMETRY_ENV.captureContent}=1)`,
    )
    .option('--timeout <duration>', 'how long to wait for the collector', '30s')
    .option('--json', 'print what was sent as JSON');

/** The flags of `hankweave traces export`, inferred from their declaration. */
export type TracesExportOptions = OptionsOf<typeof declareExport>;
