import type { ApiContentBlock, ApiMessage } from './render-message.js';

// Small chunks so that clients see real incremental deltas (and a JSON input split mid-token),
// as they do from the real API.
const CHUNK = 24;

export function chunks(text: string): string[] {
  if (text.length === 0) return [''];
  const parts: string[] = [];
  for (let offset = 0; offset < text.length; offset += CHUNK) {
    parts.push(text.slice(offset, offset + CHUNK));
  }
  return parts;
}

/** One server-sent event in Anthropic's framing: `event: <type>` + `data: <json>`. */
export function sseEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function blockEvents(block: ApiContentBlock, index: number): string[] {
  const delta = (value: Record<string, unknown>) =>
    sseEvent('content_block_delta', { index, delta: value });
  const events: string[] = [];
  if (block.type === 'text') {
    events.push(
      sseEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }),
    );
    for (const text of chunks(block.text)) events.push(delta({ type: 'text_delta', text }));
  } else if (block.type === 'thinking') {
    events.push(
      sseEvent('content_block_start', {
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
    );
    for (const thinking of chunks(block.thinking)) {
      events.push(delta({ type: 'thinking_delta', thinking }));
    }
    events.push(delta({ type: 'signature_delta', signature: block.signature }));
  } else {
    events.push(
      sseEvent('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      }),
    );
    for (const partial_json of chunks(JSON.stringify(block.input))) {
      events.push(delta({ type: 'input_json_delta', partial_json }));
    }
  }
  events.push(sseEvent('content_block_stop', { index }));
  return events;
}

/**
 * The complete event stream of one message. Usage goes out in full in both `message_start` and
 * `message_delta` (the API's cumulative semantics), so every client reads the scripted numbers
 * whichever of the two it keeps, and Claude Code's per-message `assistant` lines carry them too.
 */
export function messageEvents(message: ApiMessage): string[] {
  const { content, stop_reason, usage, ...rest } = message;
  return [
    sseEvent('message_start', {
      message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage },
    }),
    sseEvent('ping', {}),
    ...content.flatMap(blockEvents),
    sseEvent('message_delta', { delta: { stop_reason, stop_sequence: null }, usage }),
    sseEvent('message_stop', {}),
  ];
}

/** The events sent before a mid-stream failure: the stream up to the first content delta. */
export function partialEvents(message: ApiMessage): string[] {
  const events = messageEvents(message);
  const firstDelta = events.findIndex((event) => event.startsWith('event: content_block_delta'));
  return events.slice(0, firstDelta === -1 ? 2 : firstDelta + 1);
}
