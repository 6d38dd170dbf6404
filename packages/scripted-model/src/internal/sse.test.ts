import { describe, expect, it } from 'vitest';
import type { ApiMessage } from './render-message.js';
import { messageEvents, partialEvents } from './sse.js';

const message: ApiMessage = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [
    { type: 'thinking', thinking: 'Let me think about this for a little while.', signature: 'sig' },
    { type: 'text', text: 'A reply long enough to need more than one text delta.' },
    {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'Write',
      input: { file_path: '/w/a.txt', content: 'hello world' },
    },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 2,
    cache_read_input_tokens: 3,
  },
};

interface Frame {
  type: string;
  index: number;
  content_block?: Record<string, unknown>;
  delta: { type: string; text: string; thinking: string; signature: string; partial_json: string };
  message?: unknown;
  usage?: unknown;
}

/** Parses SSE frames back into their data, checking each `event:` line. */
function parse(events: string[]): Frame[] {
  return events.map((frame) => {
    const [eventLine, dataLine] = frame.trimEnd().split('\n');
    const data = JSON.parse(String(dataLine).slice('data: '.length)) as Frame;
    expect(eventLine).toBe(`event: ${data.type}`);
    return data;
  });
}

describe('messageEvents()', () => {
  it("frames a message in Anthropic's event order", () => {
    const types = parse(messageEvents(message)).map((event) => event.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.filter((type) => type === 'content_block_start')).toHaveLength(3);
    expect(types.filter((type) => type === 'content_block_stop')).toHaveLength(3);
  });

  it('rebuilds the same content from its deltas', () => {
    const blocks: Record<string, unknown>[] = [];
    const json: string[] = [];
    for (const event of parse(messageEvents(message))) {
      if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block };
      if (event.type !== 'content_block_delta') continue;
      const block = blocks[event.index] as { text: string; thinking: string; signature: string };
      const { delta } = event;
      if (delta.type === 'text_delta') block.text += delta.text;
      if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
      if (delta.type === 'signature_delta') block.signature = delta.signature;
      if (delta.type === 'input_json_delta')
        json[event.index] = (json[event.index] ?? '') + delta.partial_json;
    }
    json.forEach((text, index) => {
      const block = blocks[index];
      if (text !== undefined && block !== undefined) block.input = JSON.parse(text);
    });
    expect(blocks).toEqual(message.content);
  });

  it('sends the usage and stop reason in message_start and message_delta', () => {
    const events = parse(messageEvents(message));
    expect(events[0]?.message).toMatchObject({
      usage: message.usage,
      stop_reason: null,
      content: [],
    });
    expect(events.at(-2)).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: message.usage,
    });
  });
});

describe('partialEvents()', () => {
  it('stops right after the first content delta', () => {
    const types = parse(partialEvents(message)).map((event) => event.type);
    expect(types.at(-1)).toBe('content_block_delta');
    expect(types).not.toContain('message_stop');
  });
});
