// The queue commands' flags, apart from what uses them: the program's help and completion declare
// them without loading BullMQ (`queue-options.ts` uses them, with the queue's errors).
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { OptionsOf } from '../commands/command-context.js';

/** The environment variable that stands in for `--redis`. */
export const REDIS_URL_ENV = 'HANKWEAVE_REDIS_URL';

/**
 * Adds the flags every queue command takes (`--redis`, `--queue`), keeping the command's
 * inferred option types.
 */
export function withQueueOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  GlobalOpts extends OptionValues,
>(command: Command<Args, Opts, GlobalOpts>) {
  return command
    .option(
      '--redis <url>',
      `the Redis of the fleet, redis://host:6379 (default $${REDIS_URL_ENV})`,
    )
    .option('--queue <name>', 'the queue name (default hankweave)');
}

/**
 * The flags every queue command takes, inferred from {@link withQueueOptions} (on a command
 * with no other options), so renaming one fails typecheck in {@link redisUrlOf} and the commands.
 */
export type QueueFlags = OptionsOf<
  typeof withQueueOptions<[], Record<never, never>, Record<never, never>>
>;
