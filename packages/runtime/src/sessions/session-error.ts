import { RuntimeError, type RuntimeErrorCode } from '../errors.js';

/** Why a session operation refused: `details.reason` of the {@link RuntimeError} it throws. */
export type SessionRefusal =
  | 'unknown-session'
  | 'no-pid'
  | 'other-host'
  | 'pid-not-owner'
  | 'not-permitted';

// The runtime's code list has no session codes yet; every refusal is RUNTIME_INVALID_OPTION (the
// session key is the unusable option) with `details.reason` telling them apart. Dedicated codes
// (RUNTIME_UNKNOWN_SESSION, RUNTIME_SESSION_NOT_OWNED) would replace these entries one for one.
const CODE_OF: Record<SessionRefusal, RuntimeErrorCode> = {
  'unknown-session': 'RUNTIME_INVALID_OPTION',
  'no-pid': 'RUNTIME_INVALID_OPTION',
  'other-host': 'RUNTIME_INVALID_OPTION',
  'pid-not-owner': 'RUNTIME_INVALID_OPTION',
  'not-permitted': 'RUNTIME_INVALID_OPTION',
};

/** A refusal of a session operation, naming the session, the reason and what to do. */
export function sessionRefusal(
  reason: SessionRefusal,
  message: string,
  details: Record<string, unknown> & { key: string },
): RuntimeError {
  return new RuntimeError(CODE_OF[reason], message, {
    details: { option: 'key', reason, ...details },
  });
}
