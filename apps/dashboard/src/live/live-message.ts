/**
 * Reading the live stream (`GET /api/executions/:id/live`, server-sent events). The contract names
 * the SSE event (`hankweave`, `state`, `end`) and also defines `LiveMessage`; this accepts either
 * a bare payload under its event name or a `LiveMessage` envelope, so both readings of the
 * contract work.
 */

import type { HankweaveEvent } from '@hankweave/types';
import type { ExecutionDetail, ExecutionStatus, LiveMessage } from '../api/types.js';

/** The SSE event names the stream uses. */
export const LIVE_EVENT_NAMES = ['hankweave', 'state', 'end', 'message'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function isLiveMessage(value: unknown): value is LiveMessage {
  if (!isObject(value)) return false;
  return (
    (value.kind === 'event' && isObject(value.event)) ||
    (value.kind === 'state' && isObject(value.detail)) ||
    (value.kind === 'end' && typeof value.status === 'string')
  );
}

/** One SSE message as a LiveMessage, or undefined for anything unreadable (skipped, not fatal). */
export function parseLiveMessage(eventName: string, data: string): LiveMessage | undefined {
  let value: unknown;
  try {
    value = data === '' ? {} : JSON.parse(data);
  } catch {
    return undefined;
  }
  if (isLiveMessage(value)) return value;
  if (!isObject(value))
    return eventName === 'end' && typeof value === 'string'
      ? { kind: 'end', status: value as ExecutionStatus }
      : undefined;
  switch (eventName) {
    case 'hankweave':
      return typeof value.type === 'string'
        ? { kind: 'event', event: value as unknown as HankweaveEvent }
        : undefined;
    case 'state':
      return isObject(value.summary) && Array.isArray(value.bars)
        ? { kind: 'state', detail: value as unknown as ExecutionDetail }
        : undefined;
    case 'end':
      return {
        kind: 'end',
        status: (typeof value.status === 'string' ? value.status : 'completed') as ExecutionStatus,
      };
    default:
      return undefined;
  }
}
