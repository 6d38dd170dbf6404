import { resolve } from 'node:path';
import { DEFAULT_QUEUE_NAME, describeConnection, submitHank } from '@hankweave/queue';
import { isRemoteHankUrl, stripCredentials } from '@hankweave/remote';
import { loadScript } from '@hankweave/scripted-model';
import { CliError } from '../output/cli-error.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { positiveNumberFlag } from '../output/number-flags.js';
import type { Terminal } from '../output/terminal.js';
import { asQueueCliError, redisUrlOf } from '../queue/queue-options.js';
import { isBundleArgument } from '../run/bundle-source.js';
import { resolveHankPath } from './load-hank.js';
import type { SubmitOptions } from './submit-flags.js';

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
  if (isRemoteHankUrl(hank)) {
    // A job names files on storage every worker sees; a worker does not fetch git URLs (yet).
    throw new CliError(
      'CLI_USAGE',
      `submit takes a hank on storage every worker sees, not a git URL (${stripCredentials(hank)})`,
      'Check the hank out where the workers can read it and submit that path.',
    );
  }
  if (isBundleArgument(hank)) {
    // A worker runs a hank directory it can read; it does not verify and extract bundles (yet).
    throw new CliError(
      'CLI_USAGE',
      `submit takes a hank directory every worker sees, not a bundle (${hank})`,
      `Extract it where the workers can read it (\`${commandHint('validate')} ${shellArg(hank)}\` verifies it and names the directory it extracts to) and submit that directory.`,
    );
  }
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
