import { chatUsage, finishReasonOf } from './render-chat-completion.js';
import type { ApiContentBlock, ApiMessage } from './render-message.js';
import { chunks } from './sse.js';

/** What every chunk of one completion shares. */
export interface ChunkMeta {
  id: string;
  created: number;
  /** The client asked for `stream_options.include_usage`: a last chunk carries the usage. */
  includeUsage: boolean;
}

/** The stream's terminator, after the last chunk. */
export const DONE = 'data: [DONE]\n\n';

type Delta = Record<string, unknown>;

function blockDeltas(block: ApiContentBlock, toolIndex: number): Delta[] {
  if (block.type === 'text') return chunks(block.text).map((content) => ({ content }));
  if (block.type === 'thinking') {
    return chunks(block.thinking).map((reasoning_content) => ({ reasoning_content }));
  }
  // The first delta of a call names it; the arguments follow in pieces under the same index.
  const start = {
    tool_calls: [
      {
        index: toolIndex,
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: '' },
      },
    ],
  };
  const pieces = chunks(JSON.stringify(block.input)).map((piece) => ({
    tool_calls: [{ index: toolIndex, function: { arguments: piece } }],
  }));
  return [start, ...pieces];
}

/**
 * The complete `chat.completion.chunk` stream of one message, `data: [DONE]` included: a first
 * chunk with the role, the blocks' deltas in script order, a chunk with `finish_reason`, and,
 * when asked for, a usage chunk with empty `choices` (the other chunks then carry `usage: null`).
 */
export function chatChunks(message: ApiMessage, meta: ChunkMeta): string[] {
  const frame = (body: Delta) =>
    `data: ${JSON.stringify({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: message.model,
      ...body,
    })}\n\n`;
  const usageField = meta.includeUsage ? { usage: null } : {};
  const choice = (delta: Delta, finish: string | null = null) =>
    frame({
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...usageField,
    });
  const deltas: Delta[] = [{ role: 'assistant', content: '', refusal: null }];
  let toolIndex = 0;
  for (const block of message.content) {
    deltas.push(...blockDeltas(block, toolIndex));
    if (block.type === 'tool_use') toolIndex += 1;
  }
  const events = deltas.map((delta) => choice(delta));
  events.push(choice({}, finishReasonOf(message.stop_reason)));
  if (meta.includeUsage) events.push(frame({ choices: [], usage: chatUsage(message.usage) }));
  events.push(DONE);
  return events;
}

/** The chunks sent before a mid-stream failure: the role chunk and the first delta. */
export function partialChatChunks(message: ApiMessage, meta: ChunkMeta): string[] {
  return chatChunks(message, meta).slice(0, 2);
}
