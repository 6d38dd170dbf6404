import { resolve } from 'node:path';
import { DEFAULT_QUEUE_NAME, describeConnection, submitHank } from '@hankweave/queue';
import { loadScript } from '@hankweave/scripted-model';
import { commandHint } from '../output/command-hint.js';
import { positiveNumberFlag } from '../output/number-flags.js';
import type { Terminal } from '../output/terminal.js';
import { asQueueCliError, type QueueFlags, redisUrlOf } from '../queue/queue-options.js';
import { resolveHankPath } from './load-hank.js';

/** Flags of `hankweave submit`. */
export interface SubmitOptions extends QueueFlags {
  scriptedModel?: string;
  model?: string;
  maxCost?: string;
  maxTime?: string;
  /** Names of variables the run needs from each worker's environment (repeatable). */
  env?: string[];
  /** Fix the execution directory (resumed when it exists). */
  execution?: string;
  /** Fix the execution directory now as `{base}/jobs/{id}`. */
  base?: string;
  copy?: boolean;
  json?: boolean;
}

/**
 * `hankweave submit <hank> <data> --redis <url>`: validates the hank here (a bad hank is refused
 * now, as `hankweave validate` reports it, not later on a worker) and adds one job. Prints the
 * job id on stdout (or JSON with --json).
 */
export async function submitCommand(
  terminal: Terminal,
  hank: string,
  data: string,
  options: SubmitOptions,
): Promise<number> {
  const url = redisUrlOf(options);
  const hankPath = resolveHankPath(hank);
  const scriptedModel = options.scriptedModel ? resolve(options.scriptedModel) : undefined;
  // A script that does not load would fail every codon of the job on the worker: refuse it now.
  if (scriptedModel) await loadScript(scriptedModel);
  const maxCost = positiveNumberFlag(options.maxCost, '--max-cost', '--max-cost 2.50');
  const maxTime = positiveNumberFlag(options.maxTime, '--max-time', '--max-time 600');
  const env = (options.env ?? []).flatMap((names) => names.split(',')).filter(Boolean);
  const queueName = options.queue ?? DEFAULT_QUEUE_NAME;
  try {
    const jobId = await submitHank(url, {
      hank: hankPath,
      data: resolve(data),
      queueName,
      options: {
        ...(options.model ? { model: options.model } : {}),
        ...(scriptedModel ? { scriptedModel } : {}),
        ...(maxCost !== undefined ? { maxCost } : {}),
        ...(maxTime !== undefined ? { maxTime } : {}),
        ...(env.length > 0 ? { env } : {}),
        ...(options.copy ? { copyData: true } : {}),
      },
      ...(options.execution ? { executionDir: resolve(options.execution) } : {}),
      ...(options.base ? { executionBaseDir: resolve(options.base) } : {}),
    });
    if (options.json) {
      terminal.out(
        JSON.stringify({ jobId, queue: queueName, hank: hankPath, data: resolve(data) }),
      );
      return 0;
    }
    terminal.out(jobId);
    // A URL with a password is shown masked, and the hint does not repeat it.
    const shown = describeConnection(url);
    terminal.err(
      terminal.style.dim(
        `Submitted to queue ${queueName} at ${shown}; follow it with \`${commandHint('jobs', '--redis', shown.includes('***') ? '<url>' : url)}\`.`,
      ),
    );
    return 0;
  } catch (error) {
    throw asQueueCliError(error);
  }
}
