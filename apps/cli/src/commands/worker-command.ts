import { PgEventStorage, PgStateMirror } from '@hankweave/postgres';
import {
  type DryRunLauncher,
  type FleetBackends,
  type HankWorker,
  startWorker,
  type WorkerEvent,
} from '@hankweave/queue';
import type pg from 'pg';
import { openFleetDatabase, postgresUrlOf } from '../fleet/postgres-options.js';
import { CliError } from '../output/cli-error.js';
import type { Terminal } from '../output/terminal.js';
import { asQueueCliError, redisUrlOf } from '../queue/queue-options.js';
import { workerLine } from '../queue/worker-lines.js';
import { startDryRun } from '../run/dry-run.js';
import { parseDurationOption, sessionsBaseDir } from '../sessions/session-options.js';
import { startWorkerTelemetry, type WorkerTelemetry } from '../telemetry/worker-telemetry.js';
import type { WorkerOptions } from './worker-flags.js';

/** The worker's containment flags as every job's `sandbox` option (default: the runtime's auto). */
function sandboxOptions(options: WorkerOptions): {
  runtimeOptions?: () => { sandbox: 'off' | 'require' };
} {
  if (options.sandbox === false && options.requireSandbox === true)
    throw new CliError(
      'CLI_USAGE',
      '--no-sandbox and --require-sandbox contradict each other',
      'Keep one of them.',
    );
  if (options.sandbox === false) return { runtimeOptions: () => ({ sandbox: 'off' }) };
  if (options.requireSandbox === true) return { runtimeOptions: () => ({ sandbox: 'require' }) };
  return {};
}

/**
 * A dry-run job's scripted model, started exactly as `hankweave --scripted-model` starts it
 * (same environment, same private Claude config directory per data path).
 */
const dryRun: DryRunLauncher = async (script, dataPath, env) => {
  const dry = await startDryRun(script, dataPath, env);
  return {
    anthropicBaseUrl: dry.model.url,
    piBaseUrl: dry.piBaseUrl,
    env: dry.env,
    close: () => dry.close(),
  };
};

/**
 * `hankweave worker --redis <url>`: runs queued hanks until SIGINT/SIGTERM, one line per job and
 * codon event (NDJSON with --json). The first signal stops taking jobs and stops the running
 * executions gracefully (their jobs go back to the queue, resumable by any worker); a second
 * one kills the agents at once.
 */
export async function workerCommand(terminal: Terminal, options: WorkerOptions): Promise<number> {
  const url = redisUrlOf(options);
  const concurrency = count(options.concurrency ?? '1', '--concurrency', 1, 64);
  const note = (line: string) => (options.json ? terminal.err(line) : terminal.out(line));
  const print = (event: WorkerEvent) => {
    if (options.json) {
      terminal.out(JSON.stringify(event));
      return;
    }
    const line = workerLine(event, terminal.style);
    if (line !== undefined) terminal.out(line);
  };
  const postgresUrl = postgresUrlOf(options);
  // Each running job holds at most one connection at a time (its journal copy and state upserts
  // are one chain), and a spare one for the pool.
  const pool = postgresUrl ? await openFleetDatabase(postgresUrl, concurrency + 1) : undefined;
  let telemetry: WorkerTelemetry | undefined;
  try {
    telemetry = await startWorkerTelemetry(options, process.env, (line) =>
      note(terminal.style.yellow(line)),
    );
  } catch (error) {
    await pool?.end().catch(() => undefined);
    throw error;
  }
  if (telemetry?.description) note(terminal.style.dim(telemetry.description));
  let worker: HankWorker;
  try {
    worker = await startWorker({
      ...(pool ? fleetBackends(pool) : {}),
      connection: url,
      ...(options.queue ? { queueName: options.queue } : {}),
      concurrency,
      baseDir: sessionsBaseDir(options.base),
      ...(options.name ? { name: options.name } : {}),
      ...(options.lockDuration
        ? { lockDurationMs: parseDurationOption('--lock-duration', options.lockDuration) }
        : {}),
      ...(options.stalledInterval
        ? {
            stalledIntervalMs: parseDurationOption('--stalled-interval', options.stalledInterval),
          }
        : {}),
      ...(options.maxStalled
        ? { maxStalledCount: count(options.maxStalled, '--max-stalled', 0, 100) }
        : {}),
      ...(options.lockedRetry
        ? { lockedRetryDelayMs: parseDurationOption('--locked-retry', options.lockedRetry) }
        : {}),
      dryRun,
      onEvent: (event) => {
        telemetry?.onWorkerEvent(event);
        print(event);
      },
      ...(telemetry ? { onRuntimeEvent: telemetry.onRuntimeEvent } : {}),
      ...sandboxOptions(options),
    });
  } catch (error) {
    await telemetry?.close();
    await pool?.end().catch(() => undefined);
    throw asQueueCliError(error);
  }
  telemetry?.observe(worker);
  let signals = 0;
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  await new Promise<void>((resolve) => {
    onSignal = (signal) => {
      signals++;
      if (signals === 1) {
        const running = worker.running().length;
        note(
          terminal.style.yellow(
            `${signal}: taking no more jobs${running > 0 ? `; stopping ${running} run(s) gracefully (they go back to the queue)` : ''}. ${signal} again to force.`,
          ),
        );
        void worker.close().then(resolve, resolve);
      } else {
        note(terminal.style.yellow('Forcing: the agents are killed now.'));
        void worker.close({ force: true });
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await telemetry?.close();
  await pool?.end().catch(() => undefined);
  return 0;
}

/** Every execution's journal and state copied to the fleet's Postgres, for fleet-wide views. */
function fleetBackends(pool: pg.Pool): FleetBackends {
  return {
    journal: (executionId) => new PgEventStorage({ pool, executionId }),
    stateMirror: new PgStateMirror({ pool }),
  };
}

/** A whole number flag within bounds. */
function count(value: string, flag: string, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new CliError(
      'CLI_USAGE',
      `${flag} expects a whole number from ${min} to ${max}, got ${value}`,
      `Example: ${flag} ${Math.max(min, 2)}`,
    );
  }
  return number;
}
