import type { RuntimeErrorCode } from '@hankweave/runtime';
import {
  createEventId,
  type EventData,
  type EventType,
  HankweaveError,
  type HankweaveEvent,
  type ProtocolErrorCode,
} from '@hankweave/types';

/** Builds a targeted (never journaled) event with a fresh id and timestamp. */
export function targetedEvent<T extends EventType>(type: T, data: EventData<T>): HankweaveEvent<T> {
  return {
    id: createEventId(),
    type,
    timestamp: new Date().toISOString(),
    data,
  } as HankweaveEvent<T>;
}

/**
 * The code of an `error` event sent to a client: the protocol's own, the runtime's, or (passed
 * through) another package's code such as `STATE_LOCKED`.
 */
export type WireErrorCode = ProtocolErrorCode | RuntimeErrorCode | (string & {});

/** Where an error event came from, so a client can match it to its command. */
export interface ErrorContext {
  commandId?: string;
  commandType?: string;
}

/** The `error` event sent to one client: never fatal, severity `operation`. */
export function errorEvent(
  code: WireErrorCode,
  message: string,
  context: ErrorContext = {},
): HankweaveEvent<'error'> {
  return targetedEvent('error', {
    message,
    fatal: false,
    severity: 'operation',
    code,
    ...(Object.keys(context).length > 0 ? { context } : {}),
  });
}

/**
 * The wire code and message of anything a command threw. Coded errors keep their code (the
 * runtime's `RUNTIME_*` and the stores' codes); `RUNTIME_ROLLBACK_IN_PROGRESS` becomes the
 * protocol's `ROLLBACK_IN_PROGRESS`; anything else is `RUNTIME_INTERNAL`.
 */
export function wireErrorOf(error: unknown): { code: string; message: string } {
  if (HankweaveError.is(error)) {
    const code =
      error.code === 'RUNTIME_ROLLBACK_IN_PROGRESS' ? 'ROLLBACK_IN_PROGRESS' : error.code;
    return { code, message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'RUNTIME_INTERNAL', message: `Command execution failed: ${message}` };
}
