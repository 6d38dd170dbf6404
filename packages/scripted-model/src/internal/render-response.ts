import type { ApiMessage, ApiUsage } from './render-message.js';

/** A Responses API usage object. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** An output item of a response, in its final (`completed`) form. */
export type ResponseItem =
  | { type: 'reasoning'; id: string; summary: { type: 'summary_text'; text: string }[] }
  | {
      type: 'message';
      id: string;
      status: 'completed';
      role: 'assistant';
      content: { type: 'output_text'; text: string; annotations: [] }[];
    }
  | {
      type: 'function_call';
      id: string;
      status: 'completed';
      call_id: string;
      name: string;
      arguments: string;
    };

/** A response's status: `incomplete` when the turn stopped at `max_tokens`. */
export type ResponseStatus = 'completed' | 'incomplete';

/** A Responses API response body (`object: 'response'`). */
export interface ResponseBody {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: null;
  incomplete_details: { reason: 'max_output_tokens' } | null;
  model: string;
  output: ResponseItem[];
  parallel_tool_calls: true;
  usage: ResponsesUsage;
}

/**
 * Script usage in the Responses API's terms: `input_tokens` counts every input token, cached ones
 * included (the script's uncached `inputTokens` plus both cache counts), `cached_tokens` the cache
 * reads. The API has no cache-write count: clients read cache creation back as plain input.
 */
export function responsesUsage(usage: ApiUsage): ResponsesUsage {
  const input =
    usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cache_read_input_tokens },
    output_tokens: usage.output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output_tokens,
  };
}

/** The status of a turn's stop reason (`max_tokens` → `incomplete`, else `completed`). */
export function responseStatusOf(stopReason: string): ResponseStatus {
  return stopReason === 'max_tokens' ? 'incomplete' : 'completed';
}

/**
 * The output items of a rendered message, one per block in script order: thinking → a
 * `reasoning` item with a summary, text → an assistant `message` item, tool_use → a
 * `function_call` item (its `call_id` is the tool id, its item id starts with `fc_` as the
 * API's do). Item ids are `<kind>_<responseId without resp_>_<index>`.
 */
export function outputItems(message: ApiMessage, responseId: string): ResponseItem[] {
  const base = responseId.replace(/^resp_/, '');
  return message.content.map((block, index): ResponseItem => {
    if (block.type === 'thinking') {
      const summary = [{ type: 'summary_text' as const, text: block.thinking }];
      return { type: 'reasoning', id: `rs_${base}_${index}`, summary };
    }
    if (block.type === 'text') {
      return {
        type: 'message',
        id: `msg_${base}_${index}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: block.text, annotations: [] }],
      };
    }
    return {
      type: 'function_call',
      id: `fc_${base}_${index}`,
      status: 'completed',
      call_id: block.id,
      name: block.name,
      arguments: JSON.stringify(block.input),
    };
  });
}

/** The Responses API form of a rendered message (the non-streaming body, and the final event's). */
export function toResponse(
  message: ApiMessage,
  options: { id: string; created: number },
): ResponseBody {
  const status = responseStatusOf(message.stop_reason);
  return {
    id: options.id,
    object: 'response',
    created_at: options.created,
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    model: message.model,
    output: outputItems(message, options.id),
    parallel_tool_calls: true,
    usage: responsesUsage(message.usage),
  };
}
