import { describe, expect, it } from 'vitest';
import type { ApiMessage } from './render-message.js';
import { outputItems, responseStatusOf, responsesUsage, toResponse } from './render-response.js';

const message: ApiMessage = {
  id: 'resp_scripted_0003',
  type: 'message',
  role: 'assistant',
  model: 'gpt-5.2',
  content: [
    { type: 'thinking', thinking: 'plan', signature: 's' },
    { type: 'text', text: 'Writing.' },
    { type: 'tool_use', id: 'call_sm0t0a0b2', name: 'write', input: { path: 'a', content: 'x' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 100,
    output_tokens: 7,
    cache_creation_input_tokens: 20,
    cache_read_input_tokens: 30,
  },
};

describe('outputItems()', () => {
  it('turns each block into its output item, with ids derived from the response id', () => {
    expect(outputItems(message, 'resp_scripted_0003')).toEqual([
      {
        type: 'reasoning',
        id: 'rs_scripted_0003_0',
        summary: [{ type: 'summary_text', text: 'plan' }],
      },
      {
        type: 'message',
        id: 'msg_scripted_0003_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Writing.', annotations: [] }],
      },
      {
        type: 'function_call',
        id: 'fc_scripted_0003_2',
        status: 'completed',
        call_id: 'call_sm0t0a0b2',
        name: 'write',
        arguments: '{"path":"a","content":"x"}',
      },
    ]);
  });
});

describe('responsesUsage()', () => {
  it('counts cached and cache-written tokens inside input_tokens, cache reads as cached_tokens', () => {
    expect(responsesUsage(message.usage)).toEqual({
      input_tokens: 150,
      input_tokens_details: { cached_tokens: 30 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 157,
    });
  });
});

describe('toResponse()', () => {
  it('is a completed response holding the items and the usage', () => {
    expect(toResponse(message, { id: 'resp_scripted_0003', created: 9 })).toMatchObject({
      id: 'resp_scripted_0003',
      object: 'response',
      created_at: 9,
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'gpt-5.2',
      output: [{ type: 'reasoning' }, { type: 'message' }, { type: 'function_call' }],
      usage: { input_tokens: 150, output_tokens: 7 },
    });
  });

  it('is incomplete, for max_output_tokens, when the turn stopped at max_tokens', () => {
    expect(responseStatusOf('end_turn')).toBe('completed');
    expect(responseStatusOf('tool_use')).toBe('completed');
    const cut = toResponse({ ...message, stop_reason: 'max_tokens' }, { id: 'r', created: 0 });
    expect(cut).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
  });
});
