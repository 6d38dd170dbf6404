import { z } from 'zod';
import { parseArguments } from './chat-request.js';
import { appendBlocks, type MessagesRequest } from './request-view.js';

// Loose like the other views: clients send many fields (store, reasoning, include,
// prompt_cache_key, max_output_tokens, …) that the server ignores rather than rejects.
const partSchema = z.looseObject({ type: z.string().optional(), text: z.string().optional() });
const contentSchema = z.union([z.string(), z.array(partSchema)]);
const itemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: contentSchema.nullish(),
  summary: z.array(partSchema).nullish(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  output: contentSchema.nullish(),
});

/** The part of a Responses API request body the server reads. */
export const responsesRequestSchema = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), z.array(itemSchema)]),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  tools: z.array(z.looseObject({ type: z.string(), name: z.string().optional() })).nullish(),
  tool_choice: z
    .union([z.string(), z.looseObject({ type: z.string(), name: z.string().optional() })])
    .nullish(),
});
/** A parsed Responses API request body. */
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
type Item = z.infer<typeof itemSchema>;
type Block = Record<string, unknown> & { type: string };

/** The text of a content value: the string, or its parts' texts joined by newlines. */
function textOf(content: Item['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).flatMap((part) => part.text ?? []).join('\n');
}

type Side = ['system', string] | ['user' | 'assistant', Block[]] | undefined;

// Which side of the conversation an input item belongs to. Assistant output comes back as
// separate items (reasoning, message, function_call) that make up one assistant message;
// function_call_output items are the tool results of the next user message.
function sideOf(item: Item): Side {
  switch (item.type) {
    case 'function_call':
      return [
        'assistant',
        [
          {
            type: 'tool_use',
            id: item.call_id ?? '',
            name: item.name ?? '',
            input: parseArguments(item.arguments),
          },
        ],
      ];
    case 'function_call_output':
      return [
        'user',
        [{ type: 'tool_result', tool_use_id: item.call_id ?? '', content: textOf(item.output) }],
      ];
    case 'reasoning':
      return ['assistant', [{ type: 'thinking', thinking: textOf(item.summary) }]];
    case undefined:
    case 'message':
      break;
    default:
      return undefined; // item_reference and the like: nothing the script reads
  }
  if (item.role === 'system' || item.role === 'developer') return ['system', textOf(item.content)];
  const text = textOf(item.content);
  if (item.role === 'assistant') return ['assistant', text === '' ? [] : [{ type: 'text', text }]];
  return item.role === 'user' ? ['user', [{ type: 'text', text }]] : undefined;
}

function toolChoiceOf(choice: ResponsesRequest['tool_choice']) {
  if (choice === 'required') return { type: 'any' };
  if (typeof choice === 'object' && choice?.type === 'function' && choice.name !== undefined) {
    return { type: 'tool', name: choice.name };
  }
  return undefined;
}

/**
 * The request seen as a Messages API request, so that conversations, markers, instances, turns
 * and `when` are decided by the same code as for the other APIs. `instructions`, system and
 * developer items are the system text; consecutive assistant-side items (reasoning, message,
 * function_call) form one assistant message, and user items with function_call_output items
 * one user message.
 */
export function responsesToMessagesView(request: ResponsesRequest): MessagesRequest {
  const system = request.instructions ? [request.instructions] : [];
  const messages: MessagesRequest['messages'] = [];
  const items =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  for (const item of items) {
    const side = sideOf(item);
    if (side === undefined) continue;
    if (side[0] === 'system') system.push(side[1]);
    else appendBlocks(messages, side[0], side[1]);
  }
  const toolChoice = toolChoiceOf(request.tool_choice);
  return {
    model: request.model,
    messages,
    ...(system.length === 0 ? {} : { system: system.join('\n') }),
    stream: request.stream === true,
    tools: (request.tools ?? []).flatMap((tool) =>
      tool.type === 'function' && tool.name !== undefined ? [{ name: tool.name }] : [],
    ),
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
  };
}
