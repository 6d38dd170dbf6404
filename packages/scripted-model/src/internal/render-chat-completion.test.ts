import { describe, expect, it } from 'vitest';
import { turnSchema } from '../script-schema.js';
import { chatRequestSchema, toMessagesView } from './chat-request.js';
import { chatUsage, finishReasonOf, toChatCompletion } from './render-chat-completion.js';
import { renderMessage } from './render-message.js';

const view = toMessagesView(
  chatRequestSchema.parse({
    model: 'gpt-5.2',
    messages: [
      { role: 'system', content: 'Current working directory: /w' },
      { role: 'user', content: 'go' },
    ],
    tools: ['read', 'bash', 'edit', 'write'].map((name) => ({
      type: 'function',
      function: { name },
    })),
  }),
);

function complete(turn: unknown) {
  const message = renderMessage(turnSchema.parse(turn), {
    request: view,
    messageId: 'chatcmpl-1',
    idPrefix: 'p',
    fallbackDialect: 'pi',
    toolIdStart: 'call_',
  });
  return toChatCompletion(message, { id: 'chatcmpl-1', created: 7 });
}

describe('toChatCompletion()', () => {
  it('puts text in content, thinking in reasoning_content and tools in tool_calls', () => {
    const completion = complete({
      content: [
        { thinking: 'plan' },
        { text: 'Writing. ' },
        { write: { path: 'a.txt', content: 'A' } },
        { text: 'Done.' },
      ],
      usage: { inputTokens: 10, outputTokens: 4 },
    });
    expect(completion).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 7,
      model: 'gpt-5.2',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Writing. Done.',
            refusal: null,
            reasoning_content: 'plan',
            tool_calls: [
              {
                id: 'call_pb2',
                type: 'function',
                function: { name: 'write', arguments: '{"path":"/w/a.txt","content":"A"}' },
              },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 4,
        total_tokens: 14,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    });
  });

  it('sends null content beside tool calls when the turn has no text', () => {
    const completion = complete({ content: [{ bash: 'ls' }] });
    expect(completion.choices[0].message.content).toBeNull();
    expect(completion.choices[0].message.tool_calls?.[0]?.function.name).toBe('bash');
  });

  it('ends a text-only turn with stop, and a max_tokens turn with length', () => {
    expect(complete({ content: [{ text: 'hi' }] }).choices[0]).toMatchObject({
      message: { content: 'hi' },
      finish_reason: 'stop',
    });
    const cut = complete({ content: [{ text: 'hi' }], stopReason: 'max_tokens' });
    expect(cut.choices[0].finish_reason).toBe('length');
  });
});

describe('chatUsage()', () => {
  it('counts cached tokens inside prompt_tokens', () => {
    const usage = { input_tokens: 300, output_tokens: 80, cache_read_input_tokens: 900 };
    expect(chatUsage({ ...usage, cache_creation_input_tokens: 0 })).toEqual({
      prompt_tokens: 1200,
      completion_tokens: 80,
      total_tokens: 1280,
      prompt_tokens_details: { cached_tokens: 900 },
    });
  });

  it('reports cache writes the way Pi reads them back (cached_tokens includes the writes)', () => {
    const usage = chatUsage({
      input_tokens: 100,
      output_tokens: 5,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 300,
    });
    expect(usage).toMatchObject({
      prompt_tokens: 1300,
      prompt_tokens_details: { cached_tokens: 1200, cache_write_tokens: 300 },
    });
    // Pi's arithmetic: cacheRead = cached - writes, input = prompt - cacheRead - writes.
    const { cached_tokens, cache_write_tokens = 0 } = usage.prompt_tokens_details;
    const cacheRead = cached_tokens - cache_write_tokens;
    expect([usage.prompt_tokens - cacheRead - cache_write_tokens, cacheRead]).toEqual([100, 900]);
  });
});

describe('finishReasonOf()', () => {
  it('maps each stop reason of the script', () => {
    const reasons = ['end_turn', 'tool_use', 'max_tokens', 'stop_sequence'].map(finishReasonOf);
    expect(reasons).toEqual(['stop', 'tool_calls', 'length', 'stop']);
  });
});
