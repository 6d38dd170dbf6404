import { existsSync, readFileSync } from 'node:fs';
import { journalPath, readMeta } from '@hankweave/inspection';
import { openJournalReadOnly } from '@hankweave/journal';
import {
  createTraceExporter,
  describeTraceReport,
  HANKWEAVE,
  resolveTelemetryConfig,
  TELEMETRY_ENV,
  TelemetryError,
  type TraceExportReport,
} from '@hankweave/telemetry';
import { findExecution } from '../execution/find-execution.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import type { Terminal } from '../output/terminal.js';
import { parseDurationOption } from '../sessions/session-options.js';
import { OTEL_FIX_HINT } from '../telemetry/otel-env.js';
import type { TracesExportOptions } from './traces-flags.js';

const PAGE = 1000;

/** The hank's name from the hank.json the execution recorded, when it is still readable. */
function hankNameOf(hankPath: string | undefined): string | undefined {
  if (hankPath === undefined || !existsSync(hankPath)) return undefined;
  try {
    const name = JSON.parse(readFileSync(hankPath, 'utf8'))?.meta?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `hankweave traces export -e <dir>`: reads the execution's journal from its start and sends its
 * span tree (times from the events' timestamps) to the OTLP/HTTP endpoint of the standard
 * `OTEL_EXPORTER_OTLP_*` variables. Exits 1 unless the collector accepted every span.
 *
 * @throws {CliError} CLI_USAGE when no endpoint is set or one is malformed; CLI_NOT_FOUND for an
 * execution without a journal; CLI_FAILED when spans did not reach the collector.
 */
export async function tracesExportCommand(
  terminal: Terminal,
  options: TracesExportOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const timeoutMs = parseDurationOption('--timeout', options.timeout ?? '30s');
  let config: ReturnType<typeof resolveTelemetryConfig>;
  try {
    config = resolveTelemetryConfig(env);
  } catch (error) {
    if (TelemetryError.is(error)) throw new CliError('CLI_USAGE', error.message, OTEL_FIX_HINT);
    throw error;
  }
  const target = config.traces;
  if (!target) {
    const off =
      env[TELEMETRY_ENV.sdkDisabled] !== undefined || env[TELEMETRY_ENV.tracesExporter] === 'none';
    throw new CliError(
      'CLI_USAGE',
      off
        ? `Trace export is turned off (${TELEMETRY_ENV.sdkDisabled} or ${TELEMETRY_ENV.tracesExporter}=none)`
        : `No OpenTelemetry endpoint is set: set ${TELEMETRY_ENV.endpoint} (or ${TELEMETRY_ENV.tracesEndpoint})`,
      `For a collector on this machine: \`${TELEMETRY_ENV.endpoint}=http://localhost:4318 ${commandHint('traces', 'export', '-e', '<dir>')}\``,
    );
  }
  const executionDir = await findExecution(options, env);
  const path = journalPath(executionDir);
  if (!existsSync(path))
    throw new CliError(
      'CLI_NOT_FOUND',
      `${executionDir} has no event journal yet`,
      'Traces can be sent once the hank has started.',
    );
  const meta = await readMeta(executionDir).catch(() => undefined);
  const hankName = hankNameOf(meta?.hankPath);
  const exporter = createTraceExporter({
    target,
    serviceName: config.serviceName,
    resourceAttributes: config.resourceAttributes,
    captureContent: options.captureContent === true || config.captureContent,
    runAttributes: {
      [HANKWEAVE.executionDir]: executionDir,
      ...(hankName !== undefined ? { [HANKWEAVE.hankName]: hankName } : {}),
    },
    // A journal is read at disk speed: nothing may be dropped, so the queue holds it all.
    maxQueueSize: Number.MAX_SAFE_INTEGER,
  });
  let events = 0;
  const journal = await openJournalReadOnly(path);
  try {
    let cursor: string | undefined;
    for (;;) {
      const page = await journal.getEventsAfter(cursor, PAGE);
      cursor = page.nextCursor;
      for (const event of page.events) exporter.push(event);
      events += page.events.length;
      if (!page.hasMore) break;
    }
  } finally {
    await journal.close();
  }
  const report = await exporter.shutdown({ timeoutMs });
  const complete = report.exported === report.spans;
  if (options.json) {
    terminal.out(JSON.stringify({ executionDir, events, ...report, complete }, null, 2));
    return complete ? 0 : 1;
  }
  if (complete) terminal.out(describeSent(executionDir, events, report));
  else {
    throw new CliError(
      'CLI_FAILED',
      describeTraceReport(report) ?? `not every span reached ${report.url}`,
      `Is a collector listening at ${report.url}? (${target.source} sets it.)`,
    );
  }
  return 0;
}

function describeSent(executionDir: string, events: number, report: TraceExportReport): string {
  const runs = report.traceIds.length;
  return [
    `Sent ${report.spans} spans (${runs} trace${runs === 1 ? '' : 's'}) from ${events} events of ${executionDir}`,
    `to ${report.url}`,
    ...report.traceIds.map((id) => `  trace ${id}`),
  ].join('\n');
}
