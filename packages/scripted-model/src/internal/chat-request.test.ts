import { describe, expect, it } from 'vitest';
import { chatRequestSchema, includesUsage, toMessagesView } from './chat-request.js';
import {
  assistantMessagesAfter,
  conversationKey,
  lastToolResultText,
  lastUserMessageText,
  systemText,
  workingDirectory,
} from './request-view.js';

const toolLoop = chatRequestSchema.parse({
  model: 'gpt-5.2',
  messages: [
    { role: 'developer', content: 'You are pi.\nCurrent working directory: /tmp/pi-work' },
    { role: 'user', content: [{ type: 'text', text: 'Write it. MARKER_A' }] },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'write', arguments: '{"path":"a.txt","content":"A"}' },
        },
        { id: 'call_2', type: 'function', function: { name: 'bash', arguments: 'not json' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'Wrote a.txt' },
    { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'BASH_OK' }] },
  ],
  stream: true,
  stream_options: { include_usage: true },
  tools: [{ type: 'function', function: { name: 'write', parameters: {} } }],
});

describe('toMessagesView()', () => {
  it('turns system and developer messages into the system text', () => {
    const view = toMessagesView(toolLoop);
    expect(systemText(view)).toBe('You are pi.\nCurrent working directory: /tmp/pi-work');
    expect(workingDirectory(view)).toBe('/tmp/pi-work');
  });

  it('merges consecutive tool messages into one user message of tool results', () => {
    const view = toMessagesView(toolLoop);
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastToolResultText(view)).toBe('Wrote a.txt\nBASH_OK');
    expect(lastUserMessageText(view)).toBe('Wrote a.txt\nBASH_OK');
    expect(assistantMessagesAfter(view, 0)).toBe(1);
    expect(conversationKey(view)).toBe('Write it. MARKER_A');
  });

  it('keeps tool calls as tool_use blocks, with unparsable arguments as an empty input', () => {
    const view = toMessagesView(toolLoop);
    expect(view.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'write', input: { path: 'a.txt', content: 'A' } },
      { type: 'tool_use', id: 'call_2', name: 'bash', input: {} },
    ]);
  });

  it('merges a user message that follows tool results into the same user message', () => {
    const view = toMessagesView(
      chatRequestSchema.parse({
        ...toolLoop,
        messages: [...toolLoop.messages, { role: 'user', content: 'and then MARKER_B' }],
      }),
    );
    expect(view.messages).toHaveLength(3);
    expect(lastUserMessageText(view)).toBe('Wrote a.txt\nBASH_OK\nand then MARKER_B');
  });

  it('maps the offered functions and a forced function to the Messages form', () => {
    const forced = chatRequestSchema.parse({
      ...toolLoop,
      tool_choice: { type: 'function', function: { name: 'write' } },
    });
    expect(toMessagesView(forced)).toMatchObject({
      model: 'gpt-5.2',
      stream: true,
      tools: [{ name: 'write' }],
      tool_choice: { type: 'tool', name: 'write' },
    });
    const required = chatRequestSchema.parse({ ...toolLoop, tool_choice: 'required' });
    expect(toMessagesView(required).tool_choice).toEqual({ type: 'any' });
    const auto = chatRequestSchema.parse({ ...toolLoop, tool_choice: 'auto' });
    expect(toMessagesView(auto).tool_choice).toBeUndefined();
  });
});

describe('includesUsage()', () => {
  it('is true only when stream_options.include_usage is set', () => {
    expect(includesUsage(toolLoop)).toBe(true);
    const without = chatRequestSchema.parse({ model: 'm', messages: [], stream_options: null });
    expect(includesUsage(without)).toBe(false);
  });
});

describe('chatRequestSchema', () => {
  it('rejects a body without messages', () => {
    expect(chatRequestSchema.safeParse({ model: 'm' }).success).toBe(false);
  });
});
