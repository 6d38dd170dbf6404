import { describe, expect, it } from 'vitest';
import {
  assistantMessagesAfter,
  conversationKey,
  lastToolResultText,
  lastUserMessageText,
  systemText,
  workingDirectory,
} from './request-view.js';
import { responsesRequestSchema, responsesToMessagesView } from './responses-request.js';

// The input Pi 0.73.1 sends on its second request of a tool loop: its system prompt as a
// developer item, the prompt, the first answer's items, and the tool results.
const toolLoop = responsesRequestSchema.parse({
  model: 'gpt-5.2',
  input: [
    { role: 'developer', content: 'You are pi.\nCurrent working directory: /tmp/pi-work' },
    { role: 'user', content: [{ type: 'input_text', text: 'Write it. MARKER_A' }] },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'plan' }] },
    {
      type: 'message',
      role: 'assistant',
      id: 'msg_1',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Writing.', annotations: [] }],
    },
    {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'write',
      arguments: '{"path":"a.txt","content":"A"}',
    },
    { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'bash', arguments: 'not json' },
    { type: 'function_call_output', call_id: 'call_1', output: 'Wrote a.txt' },
    {
      type: 'function_call_output',
      call_id: 'call_2',
      output: [{ type: 'input_text', text: 'BASH_OK' }],
    },
  ],
  stream: true,
  store: false,
  reasoning: { effort: 'high', summary: 'auto' },
  tools: [
    { type: 'function', name: 'write', parameters: {} },
    { type: 'function', name: 'bash', parameters: {} },
    { type: 'web_search' },
  ],
});

describe('responsesToMessagesView()', () => {
  it('makes one assistant message of the answer items and one user message of the results', () => {
    const view = responsesToMessagesView(toolLoop);
    expect(view.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Write it. MARKER_A' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan' },
          { type: 'text', text: 'Writing.' },
          { type: 'tool_use', id: 'call_1', name: 'write', input: { path: 'a.txt', content: 'A' } },
          { type: 'tool_use', id: 'call_2', name: 'bash', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'Wrote a.txt' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'BASH_OK' },
        ],
      },
    ]);
    expect(view.tools).toEqual([{ name: 'write' }, { name: 'bash' }]);
    expect(view.stream).toBe(true);
  });

  it('answers the shared questions the way the Messages view does', () => {
    const view = responsesToMessagesView(toolLoop);
    expect(systemText(view)).toContain('You are pi.');
    expect(workingDirectory(view)).toBe('/tmp/pi-work');
    expect(assistantMessagesAfter(view, 0)).toBe(1);
    expect(lastToolResultText(view)).toBe('Wrote a.txt\nBASH_OK');
    expect(lastUserMessageText(view)).toBe('Wrote a.txt\nBASH_OK');
    expect(conversationKey(view)).toBe('Write it. MARKER_A');
  });

  it('reads a string input as the user message and instructions as the system text', () => {
    const view = responsesToMessagesView(
      responsesRequestSchema.parse({ model: 'gpt-5.2', input: 'hello', instructions: 'Be brief.' }),
    );
    expect(view.system).toBe('Be brief.');
    expect(view.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
    expect(view.stream).toBe(false);
  });

  it('maps tool_choice to the Messages tool choice', () => {
    const choose = (tool_choice: unknown) =>
      responsesToMessagesView(responsesRequestSchema.parse({ model: 'm', input: 'x', tool_choice }))
        .tool_choice;
    expect(choose({ type: 'function', name: 'answer' })).toEqual({ type: 'tool', name: 'answer' });
    expect(choose('required')).toEqual({ type: 'any' });
    expect(choose('auto')).toBeUndefined();
  });

  it('skips items the script cannot read', () => {
    const view = responsesToMessagesView(
      responsesRequestSchema.parse({
        model: 'm',
        input: [
          { role: 'user', content: 'hi' },
          { type: 'item_reference', id: 'x' },
        ],
      }),
    );
    expect(view.messages).toHaveLength(1);
  });
});

describe('responsesRequestSchema', () => {
  it('rejects a body without input', () => {
    expect(responsesRequestSchema.safeParse({ model: 'gpt-5.2' }).success).toBe(false);
  });
});
