// Apart from `session-options.ts`, which loads the runtime and the registry: flag declarations list
// these words in the help and the completion.
import type { SessionStatus } from '@hankweave/sessions';

/** Every status a session can have, in the seed's words. */
export const SESSION_STATUSES: readonly SessionStatus[] = [
  'running',
  'completed',
  'killed',
  'unknown_termination',
];
