import { QueueError } from '@hankweave/queue';
import { checkServerUrl } from '../fleet/server-url.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { type QueueFlags, REDIS_URL_ENV } from './queue-flags.js';

/** `--redis`, else `$HANKWEAVE_REDIS_URL`; a URL that does not parse is a usage error. */
export function redisUrlOf(flags: QueueFlags, env: NodeJS.ProcessEnv = process.env): string {
  const url = flags.redis ?? env[REDIS_URL_ENV];
  if (url === undefined || url === '') {
    throw new CliError(
      'CLI_USAGE',
      'No Redis to use: --redis <url> is missing',
      `Pass --redis redis://host:6379 (or set ${REDIS_URL_ENV}); every submitter and worker of a fleet uses the same one.`,
    );
  }
  return checkServerUrl(
    '--redis',
    url,
    ['redis:', 'rediss:'],
    'Write it as redis://host:6379 (rediss:// for TLS, /<db> for a database number).',
  );
}

/** The queue's own errors in the CLI's words, with what to do next. */
export function asQueueCliError(error: unknown): unknown {
  if (!QueueError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  switch (error.code) {
    case 'QUEUE_REDIS_UNREACHABLE':
      return new CliError(
        'CLI_FAILED',
        message,
        'Start Redis there (`redis-server`; Debian: `apt-get install redis-server`) or pass the URL of a running one: --redis redis://host:6379.',
      );
    case 'QUEUE_JOB_NOT_FOUND':
      return new CliError(
        'CLI_NOT_FOUND',
        message,
        `List the jobs with \`${commandHint('jobs', '--redis', '<url>')}\` (and --queue <name> for another queue).`,
      );
    case 'QUEUE_INVALID_JOB':
      return new CliError('CLI_USAGE', message, 'Fix the argument named above and submit again.');
    default:
      return error;
  }
}
