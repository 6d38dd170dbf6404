import type { AgentResultLine } from '@hankweave/types';
import type { ApiRetryEvent } from '../agent-event.js';

/** A tool call waiting for its result. */
export interface PendingToolUse {
  name: string;
  /** Timestamp of the assistant line that made the call. */
  timestamp: string;
}

/** The content blocks of a message: a string content is one text block; non-objects are dropped. */
export function contentBlocks(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is Record<string, unknown> => typeof block === 'object' && block !== null,
  );
}

/** The text of a text block, else ''. */
export function textOf(block: Record<string, unknown>): string {
  return block.type === 'text' && typeof block.text === 'string' ? block.text : '';
}

/** A result's text: `result`, else `error`, else its `errors` joined; undefined when none. */
export function resultText(line: AgentResultLine): string | undefined {
  const errors = (line as { errors?: unknown }).errors;
  const joined = Array.isArray(errors)
    ? errors.filter((item): item is string => typeof item === 'string').join('\n')
    : undefined;
  for (const candidate of [line.result, line.error, joined]) {
    if (candidate !== undefined && candidate !== '') return candidate;
  }
  return line.result;
}

/** The `api.retry` event of a `system/api_retry` line. */
export function apiRetryEvent(line: Record<string, unknown>, timestamp: string): ApiRetryEvent {
  const event: ApiRetryEvent = { type: 'api.retry', timestamp };
  const num = (key: string) => (typeof line[key] === 'number' ? (line[key] as number) : undefined);
  const fields: Array<[keyof ApiRetryEvent, number | undefined]> = [
    ['attempt', num('attempt')],
    ['maxRetries', num('max_retries')],
    ['retryDelayMs', num('retry_delay_ms')],
    ['errorStatus', num('error_status')],
  ];
  for (const [key, value] of fields) {
    if (value !== undefined) (event as unknown as Record<string, unknown>)[key] = value;
  }
  if (typeof line.error === 'string') event.error = line.error;
  return event;
}
