import type { ApiMessage, ApiUsage } from './render-message.js';

/** A tool call in a Chat Completions assistant message. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A Chat Completions usage object. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
}

/** The assistant message of a completion; `reasoning_content` carries thinking, as llama.cpp, vLLM and DeepSeek do. */
export interface ChatAssistantMessage {
  role: 'assistant';
  content: string | null;
  refusal: null;
  reasoning_content?: string;
  tool_calls?: ChatToolCall[];
}

/** A Chat Completions response body (`object: 'chat.completion'`). */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      message: ChatAssistantMessage;
      logprobs: null;
      finish_reason: ChatFinishReason;
    },
  ];
  usage: ChatUsage;
}

/** Why a completion ended. */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls';

const FINISH_REASONS: Record<string, ChatFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
};

/** The `finish_reason` of a turn's stop reason (`tool_use` → `tool_calls`, `max_tokens` → `length`). */
export function finishReasonOf(stopReason: string): ChatFinishReason {
  return FINISH_REASONS[stopReason] ?? 'stop';
}

/**
 * Script usage in OpenAI's terms. `prompt_tokens` counts every input token, cached ones included,
 * so the script's `inputTokens` (uncached, Anthropic's meaning) plus both cache counts. Cache
 * writes are reported as `cache_write_tokens` inside `cached_tokens` (OpenRouter's convention,
 * which Pi reads), so an agent that subtracts them gets back exactly the scripted numbers.
 */
export function chatUsage(usage: ApiUsage): ChatUsage {
  const read = usage.cache_read_input_tokens;
  const write = usage.cache_creation_input_tokens;
  const prompt = usage.input_tokens + read + write;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output_tokens,
    total_tokens: prompt + usage.output_tokens,
    prompt_tokens_details:
      write === 0
        ? { cached_tokens: read }
        : { cached_tokens: read + write, cache_write_tokens: write },
  };
}

/**
 * The Chat Completions form of a rendered message: text blocks joined into `content`, thinking
 * into `reasoning_content`, tool_use blocks into `tool_calls` (arguments as a JSON string).
 */
export function toChatCompletion(
  message: ApiMessage,
  options: { id: string; created: number },
): ChatCompletion {
  let text = '';
  let reasoning = '';
  const toolCalls: ChatToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') reasoning += block.thinking;
    else {
      const call = { name: block.name, arguments: JSON.stringify(block.input) };
      toolCalls.push({ id: block.id, type: 'function', function: call });
    }
  }
  const assistant: ChatAssistantMessage = {
    role: 'assistant',
    // OpenAI sends null content beside tool calls when the model wrote no text.
    content: text === '' && toolCalls.length > 0 ? null : text,
    refusal: null,
    ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
  };
  return {
    id: options.id,
    object: 'chat.completion',
    created: options.created,
    model: message.model,
    choices: [
      {
        index: 0,
        message: assistant,
        logprobs: null,
        finish_reason: finishReasonOf(message.stop_reason),
      },
    ],
    usage: chatUsage(message.usage),
  };
}
