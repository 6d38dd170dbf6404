import { z } from 'zod';
import type { MessagesRequest } from './request-view.js';

// Loose like the Messages view: clients send many fields (store, max_completion_tokens,
// reasoning_effort, prompt_cache_key, …) that the server ignores rather than rejects.
const partSchema = z.looseObject({ type: z.string() });
const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }),
});
const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(partSchema), z.null()]).optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
});

/** The part of a Chat Completions request body the server reads. */
export const chatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(chatMessageSchema),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  tools: z
    .array(z.looseObject({ function: z.looseObject({ name: z.string() }).optional() }))
    .nullish(),
  tool_choice: z
    .union([z.string(), z.looseObject({ function: z.looseObject({ name: z.string() }) })])
    .nullish(),
});
/** A parsed Chat Completions request body. */
export type ChatRequest = z.infer<typeof chatRequestSchema>;
type ChatMessage = ChatRequest['messages'][number];
type Block = Record<string, unknown> & { type: string };
type ViewMessage = MessagesRequest['messages'][number];

/** The text of a message's content: the string, or its text parts joined by newlines. */
function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : []))
    .join('\n');
}

/** A tool call's JSON arguments as an object; `{}` when they are not a JSON object. */
export function parseArguments(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function assistantBlocks(message: ChatMessage): Block[] {
  const text = contentText(message.content);
  const blocks: Block[] = text === '' ? [] : [{ type: 'text', text }];
  for (const call of message.tool_calls ?? []) {
    blocks.push({
      type: 'tool_use',
      id: call.id ?? '',
      name: call.function.name ?? '',
      input: parseArguments(call.function.arguments),
    });
  }
  return blocks;
}

function userSideBlocks(message: ChatMessage): Block[] {
  const text = contentText(message.content);
  if (message.role === 'tool' || message.role === 'function') {
    return [{ type: 'tool_result', tool_use_id: message.tool_call_id ?? '', content: text }];
  }
  return [{ type: 'text', text }];
}

/**
 * The request seen as a Messages API request, so that conversations, markers, instances, turns
 * and `when` are decided by exactly the same code for both APIs. System and developer messages
 * become the system text; tool messages become `tool_result` blocks; consecutive user and tool
 * messages merge into one user message, as the Messages API requires, so "the last tool result"
 * and "the last user message" mean the same on both.
 */
export function toMessagesView(request: ChatRequest): MessagesRequest {
  const system: string[] = [];
  const messages: ViewMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(contentText(message.content));
    } else if (message.role === 'assistant') {
      messages.push({ role: 'assistant', content: assistantBlocks(message) });
    } else {
      const previous = messages.at(-1);
      if (previous?.role === 'user' && Array.isArray(previous.content)) {
        previous.content.push(...userSideBlocks(message));
      } else {
        messages.push({ role: 'user', content: userSideBlocks(message) });
      }
    }
  }
  const choice = request.tool_choice;
  const toolChoice =
    typeof choice === 'object' && choice !== null
      ? { type: 'tool', name: choice.function.name }
      : choice === 'required'
        ? { type: 'any' }
        : undefined;
  return {
    model: request.model,
    messages,
    ...(system.length === 0 ? {} : { system: system.join('\n') }),
    stream: request.stream === true,
    tools: (request.tools ?? []).flatMap((tool) =>
      tool.function === undefined ? [] : [{ name: tool.function.name }],
    ),
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
  };
}

/** True when the client asked for the usage chunk at the end of a stream. */
export function includesUsage(request: ChatRequest): boolean {
  return request.stream_options?.include_usage === true;
}
