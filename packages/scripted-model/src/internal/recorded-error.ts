import type { ScriptedModelError } from '../errors.js';
import type { RecordedRequest } from '../recorded-request.js';

/** The server's own error as recorded on the request: its code, message and details, if any. */
export function recordedError(error: ScriptedModelError): NonNullable<RecordedRequest['error']> {
  const details = error.details as Record<string, unknown>;
  return {
    code: error.code,
    message: error.message,
    ...(Object.keys(details).length > 0 ? { details: { ...details } } : {}),
  };
}
