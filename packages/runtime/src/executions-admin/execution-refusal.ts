import { RuntimeError, type RuntimeErrorCode } from '../errors.js';

/** Why an execution-admin operation (killExecution) refused: `details.reason` of the {@link RuntimeError} it throws. */
export type ExecutionRefusal =
  | 'unknown-session'
  | 'no-pid'
  | 'other-host'
  | 'pid-not-owner'
  | 'not-permitted';

// The runtime's code list has no execution-admin codes yet; every refusal is RUNTIME_INVALID_OPTION (the
// session key is the unusable option) with `details.reason` telling them apart. Dedicated codes
// (RUNTIME_UNKNOWN_SESSION, RUNTIME_SESSION_NOT_OWNED) would replace these entries one for one.
const CODE_OF: Record<ExecutionRefusal, RuntimeErrorCode> = {
  'unknown-session': 'RUNTIME_INVALID_OPTION',
  'no-pid': 'RUNTIME_INVALID_OPTION',
  'other-host': 'RUNTIME_INVALID_OPTION',
  'pid-not-owner': 'RUNTIME_INVALID_OPTION',
  'not-permitted': 'RUNTIME_INVALID_OPTION',
};

/** A refusal of an execution-admin operation, naming the registry session, the reason and what to do. */
export function executionRefusal(
  reason: ExecutionRefusal,
  message: string,
  details: Record<string, unknown> & { key: string },
): RuntimeError {
  return new RuntimeError(CODE_OF[reason], message, {
    details: { option: 'key', reason, ...details },
  });
}
