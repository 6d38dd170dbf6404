import type { ContentBlock, Turn, Usage } from '../script-schema.js';
import type { MessagesRequest } from './request-view.js';
import { workingDirectory } from './request-view.js';
import { isToolBlock, scriptedToolCall, type ToolCall, type ToolDialect } from './tool-calls.js';

/** An Anthropic content block as sent to the client. */
export type ApiContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** An Anthropic usage object. */
export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** An Anthropic assistant message (the non-streaming response body). */
export interface ApiMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ApiContentBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: ApiUsage;
}

// Clients round-trip signatures without checking them; a fixed value keeps output deterministic.
const DUMMY_SIGNATURE = 'c2NyaXB0ZWQtbW9kZWw=';

/** Maps script usage to the API's snake_case form. */
export function apiUsage(usage: Usage): ApiUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}

/** The tool a request obliges the model to call, if any (how SDKs ask for structured output). */
function forcedTool(request: MessagesRequest): string | undefined {
  const choice = request.tool_choice;
  if (choice?.type === 'tool') return choice.name;
  if (choice?.type === 'any' && request.tools?.length === 1) return request.tools[0]?.name;
  return undefined;
}

interface RenderContext {
  request: MessagesRequest;
  /** Makes tool ids unique within a session and stable across retries of the same turn. */
  idPrefix: string;
  /** Whose tool names to use when the request offers neither agent's; default Claude Code's. */
  fallbackDialect?: ToolDialect;
  /** Start of generated tool ids: `toolu_` (default, Anthropic's) or `call_` (OpenAI's). */
  toolIdStart?: string;
}

function renderBlock(block: ContentBlock, index: number, context: RenderContext): ApiContentBlock {
  const tool = (call: ToolCall): ApiContentBlock => ({
    type: 'tool_use',
    id: call.id ?? `${context.toolIdStart ?? 'toolu_'}${context.idPrefix}b${index}`,
    name: call.name,
    input: call.input,
  });
  if ('text' in block) return { type: 'text', text: block.text };
  if ('thinking' in block) {
    return {
      type: 'thinking',
      thinking: block.thinking,
      signature: block.signature ?? DUMMY_SIGNATURE,
    };
  }
  if (isToolBlock(block)) {
    const { request } = context;
    const offered = (request.tools ?? []).flatMap((offer) => offer.name ?? []);
    const cwd = workingDirectory(request);
    const fallback = context.fallbackDialect ?? 'claude-code';
    return tool(scriptedToolCall(block, { offered, cwd, fallback }));
  }
  const forced = forcedTool(context.request);
  if (forced !== undefined) {
    return tool({ name: forced, input: block.object as Record<string, unknown> });
  }
  return { type: 'text', text: JSON.stringify(block.object) };
}

/** Renders a script turn as the assistant message that answers `request`. */
export function renderMessage(
  turn: Turn,
  context: RenderContext & { messageId: string },
): ApiMessage {
  const content = turn.content.map((block, index) => renderBlock(block, index, context));
  const callsTool = content.some((block) => block.type === 'tool_use');
  return {
    id: context.messageId,
    type: 'message',
    role: 'assistant',
    model: context.request.model,
    content,
    stop_reason: turn.stopReason ?? (callsTool ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: apiUsage(turn.usage),
  };
}
