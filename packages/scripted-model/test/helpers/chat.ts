/** Pi's built-in tools as a Chat Completions request offers them. */
export const PI_TOOLS = ['read', 'bash', 'edit', 'write'].map((name) => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: {} } },
}));

/** POSTs a Chat Completions request to a scripted model (`path` default `/v1/chat/completions`). */
export function postChat(
  url: string,
  body: Record<string, unknown>,
  init: { path?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${url}${init.path ?? '/v1/chat/completions'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
    body: JSON.stringify({ model: 'gpt-5.2', ...body }),
    signal: init.signal,
  });
}

/** One `chat.completion.chunk`, as far as the tests read it. */
export interface ChatChunk {
  id: string;
  object: string;
  model: string;
  choices: {
    delta: {
      role?: string;
      content?: string | null;
      reasoning_content?: string;
      tool_calls?: {
        index: number;
        id?: string;
        function: { name?: string; arguments?: string };
      }[];
    };
    finish_reason: string | null;
  }[];
  usage?: Record<string, unknown> | null;
}

/** Parses an OpenAI SSE body (`data: <json>` frames, then `data: [DONE]`). */
export function parseChatSse(body: string): { chunks: ChatChunk[]; done: boolean } {
  const data = body
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice('data: '.length));
  return {
    chunks: data.filter((text) => text !== '[DONE]').map((text) => JSON.parse(text) as ChatChunk),
    done: data.at(-1) === '[DONE]',
  };
}

/** What a client assembles from a stream, the way the OpenAI SDK's helpers do. */
export interface AssembledStream {
  content: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: Record<string, unknown> }[];
  finishReason: string | null;
  usage: Record<string, unknown> | null;
}

export function assembleStream(chunks: ChatChunk[]): AssembledStream {
  const calls = new Map<number, { id: string; name: string; json: string }>();
  const result: AssembledStream = {
    content: '',
    reasoning: '',
    toolCalls: [],
    finishReason: null,
    usage: null,
  };
  for (const chunk of chunks) {
    if (chunk.usage) result.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    result.content += choice.delta.content ?? '';
    result.reasoning += choice.delta.reasoning_content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      const entry = calls.get(call.index) ?? { id: '', name: '', json: '' };
      entry.id ||= call.id ?? '';
      entry.name ||= call.function.name ?? '';
      entry.json += call.function.arguments ?? '';
      calls.set(call.index, entry);
    }
    if (choice.finish_reason !== null) result.finishReason = choice.finish_reason;
  }
  result.toolCalls = [...calls.values()].map(({ id, name, json }) => ({
    id,
    name,
    arguments: JSON.parse(json) as Record<string, unknown>,
  }));
  return result;
}
