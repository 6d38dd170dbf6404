import type { ApiMessage } from './render-message.js';
import { outputItems, type ResponseItem, toResponse } from './render-response.js';
import { chunks, sseEvent } from './sse.js';

/** What every event of one response shares. */
export interface ResponseMeta {
  id: string;
  created: number;
}

type Emit = (type: string, data: Record<string, unknown>) => void;

// One output item's events, as the API streams them: `output_item.added` with the item empty,
// its parts and deltas, then `output_item.done` with the whole item. Clients (Pi's among them)
// append a delta only to a part announced before it, so every part is announced.
function itemEvents(item: ResponseItem, output_index: number, emit: Emit): void {
  const at = { item_id: item.id, output_index };
  if (item.type === 'reasoning') {
    const text = item.summary[0]?.text ?? '';
    const part = (value: string) => ({
      ...at,
      summary_index: 0,
      part: { type: 'summary_text', text: value },
    });
    emit('response.output_item.added', { output_index, item: { ...item, summary: [] } });
    emit('response.reasoning_summary_part.added', part(''));
    for (const delta of chunks(text)) {
      emit('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta });
    }
    emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text });
    emit('response.reasoning_summary_part.done', part(text));
  } else if (item.type === 'message') {
    const text = item.content[0]?.text ?? '';
    const part = (value: string) => ({
      ...at,
      content_index: 0,
      part: { type: 'output_text', text: value, annotations: [] },
    });
    const empty = { ...item, status: 'in_progress', content: [] };
    emit('response.output_item.added', { output_index, item: empty });
    emit('response.content_part.added', part(''));
    for (const delta of chunks(text)) {
      emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
    }
    emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
    emit('response.content_part.done', part(text));
  } else {
    const empty = { ...item, status: 'in_progress', arguments: '' };
    emit('response.output_item.added', { output_index, item: empty });
    for (const delta of chunks(item.arguments)) {
      emit('response.function_call_arguments.delta', { ...at, delta });
    }
    emit('response.function_call_arguments.done', { ...at, arguments: item.arguments });
  }
  emit('response.output_item.done', { output_index, item });
}

/**
 * The complete event stream of one response: `response.created` and `response.in_progress`
 * (the response without output), each output item's events, then `response.completed` (or
 * `response.incomplete` for a `max_tokens` turn, as the API does) carrying the whole response
 * and its usage. Events are numbered by `sequence_number`.
 */
export function responseEvents(message: ApiMessage, meta: ResponseMeta): string[] {
  const events: string[] = [];
  const emit: Emit = (type, data) => {
    events.push(sseEvent(type, { ...data, sequence_number: events.length }));
  };
  const final = toResponse(message, meta);
  const pending = { ...final, status: 'in_progress', output: [], usage: null };
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  outputItems(message, meta.id).forEach((item, index) => {
    itemEvents(item, index, emit);
  });
  emit(final.status === 'completed' ? 'response.completed' : 'response.incomplete', {
    response: final,
  });
  return events;
}

/** The events sent before a mid-stream failure: the stream up to its first delta. */
export function partialResponseEvents(message: ApiMessage, meta: ResponseMeta): string[] {
  const events = responseEvents(message, meta);
  const firstDelta = events.findIndex((event) => /^event: [\w.]+\.delta\n/.test(event));
  return events.slice(0, firstDelta === -1 ? 2 : firstDelta + 1);
}
