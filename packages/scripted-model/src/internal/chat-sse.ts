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
  // One delta per call, name and arguments whole: OpenAI's clients accept arguments in any
  // number of pieces, and Mistral's (which Pi uses for Mistral models) wants the name in each.
  return [
    {
      tool_calls: [
        {
          index: toolIndex,
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input) },
        },
      ],
    },
  ];
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
  // Without `include_usage`, the finishing chunk carries the usage, as Mistral's API always does
  // (its client reads it there); OpenAI's clients ignore it there.
  const finish = choice({}, finishReasonOf(message.stop_reason));
  events.push(
    meta.includeUsage
      ? finish
      : frame({
          choices: [
            {
              index: 0,
              delta: {},
              logprobs: null,
              finish_reason: finishReasonOf(message.stop_reason),
            },
          ],
          usage: chatUsage(message.usage),
        }),
  );
  if (meta.includeUsage) events.push(frame({ choices: [], usage: chatUsage(message.usage) }));
  events.push(DONE);
  return events;
}

/** The chunks sent before a mid-stream failure: the role chunk and the first delta. */
export function partialChatChunks(message: ApiMessage, meta: ChunkMeta): string[] {
  return chatChunks(message, meta).slice(0, 2);
}
