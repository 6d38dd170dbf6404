import { describe, expect, it } from 'vitest';
import { chatChunks, DONE, partialChatChunks } from './chat-sse.js';
import type { ApiMessage } from './render-message.js';

const message: ApiMessage = {
  id: 'chatcmpl-1',
  type: 'message',
  role: 'assistant',
  model: 'gpt-5.2',
  content: [
    { type: 'thinking', thinking: 'plan', signature: 's' },
    { type: 'text', text: 'A text that is longer than one chunk of the stream.' },
    {
      type: 'tool_use',
      id: 'call_a',
      name: 'write',
      input: { path: 'a', content: 'x'.repeat(40) },
    },
    { type: 'tool_use', id: 'call_b', name: 'bash', input: { command: 'ls' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 10,
    output_tokens: 3,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 5,
  },
};
const meta = { id: 'chatcmpl-1', created: 7, includeUsage: true };

type Chunk = {
  id: string;
  object: string;
  model: string;
  choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: unknown;
};

function parse(events: string[]): Chunk[] {
  return events
    .filter((event) => event !== DONE)
    .map((event) => JSON.parse(event.replace(/^data: /, '')) as Chunk);
}

describe('chatChunks()', () => {
  it('streams the role, the deltas in order, the finish reason, the usage and [DONE]', () => {
    const events = chatChunks(message, meta);
    expect(events.every((event) => event.startsWith('data: ') && event.endsWith('\n\n'))).toBe(
      true,
    );
    expect(events.at(-1)).toBe(DONE);
    const chunks = parse(events);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === 'chatcmpl-1')).toBe(
      true,
    );
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    const joined = (key: string) =>
      deltas.map((d) => (d[key] as string | undefined) ?? '').join('');
    expect(joined('reasoning_content')).toBe('plan');
    expect(joined('content')).toBe('A text that is longer than one chunk of the stream.');
    expect(chunks.filter((c) => c.choices[0]?.delta.content !== undefined).length).toBeGreaterThan(
      2,
    );
    expect(chunks.at(-2)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 15,
        completion_tokens: 3,
        prompt_tokens_details: { cached_tokens: 5 },
      },
    });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('sends each tool call whole in one delta: name, id and arguments (as Mistral needs)', () => {
    type Call = { index: number; id?: string; function: { name?: string; arguments: string } };
    const calls = parse(chatChunks(message, meta)).flatMap(
      (c) => (c.choices[0]?.delta.tool_calls as Call[] | undefined) ?? [],
    );
    expect(calls.map((call) => [call.index, call.id, call.function.name])).toEqual([
      [0, 'call_a', 'write'],
      [1, 'call_b', 'bash'],
    ]);
    expect(JSON.parse(calls[0]?.function.arguments ?? '')).toEqual({
      path: 'a',
      content: 'x'.repeat(40),
    });
    expect(JSON.parse(calls[1]?.function.arguments ?? '')).toEqual({ command: 'ls' });
  });

  it('puts the usage on the finishing chunk unless the client asked for a usage chunk', () => {
    const chunks = parse(chatChunks(message, { ...meta, includeUsage: false }));
    expect(chunks.slice(0, -1).every((c) => !('usage' in c))).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 15, completion_tokens: 3 });
  });
});

describe('partialChatChunks()', () => {
  it('stops after the first delta, before any finish reason or [DONE]', () => {
    const partial = partialChatChunks(message, meta);
    expect(partial).toHaveLength(2);
    expect(parse(partial).every((c) => c.choices[0]?.finish_reason === null)).toBe(true);
    expect(partial).not.toContain(DONE);
  });
});
