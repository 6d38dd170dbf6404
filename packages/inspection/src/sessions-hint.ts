import { SessionsError } from '@hankweave/sessions';

/**
 * What a person does about a session registry that cannot be read (not JSON, or its lock held):
 * the hint `hankweave sessions` prints and the dashboard's sessions panel shows; undefined for
 * any other error.
 */
export function sessionsErrorHint(error: unknown): string | undefined {
  if (SessionsError.is(error, 'SESSIONS_CORRUPT_FILE'))
    return 'Fix the JSON by hand, or move the file aside: the next run starts a new registry (the executions themselves are untouched).';
  if (SessionsError.is(error, 'SESSIONS_LOCK_TIMEOUT'))
    return 'Another hankweave process holds the registry lock; try again in a moment (a lock left by a dead process expires on its own).';
  return undefined;
}
