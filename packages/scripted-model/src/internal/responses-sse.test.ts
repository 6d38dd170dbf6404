import { describe, expect, it } from 'vitest';
import type { ApiMessage } from './render-message.js';
import { partialResponseEvents, responseEvents } from './responses-sse.js';

const message: ApiMessage = {
  id: 'resp_scripted_0001',
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
const meta = { id: 'resp_scripted_0001', created: 7 };

type Event = { event: string; data: Record<string, unknown> };

function parse(events: string[]): Event[] {
  return events.map((text) => {
    const [eventLine, dataLine] = text.trimEnd().split('\n');
    return {
      event: String(eventLine).slice('event: '.length),
      data: JSON.parse(String(dataLine).slice('data: '.length)) as Record<string, unknown>,
    };
  });
}

describe('responseEvents()', () => {
  const events = parse(responseEvents(message, meta));

  it('frames typed, numbered events whose data repeats the type', () => {
    expect(events.every(({ event, data }) => data.type === event)).toBe(true);
    expect(events.map(({ data }) => data.sequence_number)).toEqual(events.map((_, index) => index));
  });

  it('announces the response, streams each item, and completes with the usage', () => {
    const types = events.map(({ event }) => event);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(events[0]?.data.response).toMatchObject({
      status: 'in_progress',
      output: [],
      usage: null,
    });
    expect(types.filter((type) => type === 'response.output_item.added')).toHaveLength(3);
    expect(types.filter((type) => type === 'response.output_item.done')).toHaveLength(3);
    expect(types.at(-1)).toBe('response.completed');
    expect(events.at(-1)?.data.response).toMatchObject({
      status: 'completed',
      output: [{ type: 'reasoning' }, { type: 'message' }, { type: 'function_call' }],
      usage: { input_tokens: 15, input_tokens_details: { cached_tokens: 5 }, output_tokens: 3 },
    });
  });

  it('announces a part before its deltas, which add up to the whole', () => {
    const of = (type: string) => events.filter(({ event }) => event === type);
    const text = of('response.output_text.delta')
      .map(({ data }) => data.delta)
      .join('');
    expect(text).toBe('A text that is longer than one chunk of the stream.');
    const partAdded = events.findIndex(({ event }) => event === 'response.content_part.added');
    const firstText = events.findIndex(({ event }) => event === 'response.output_text.delta');
    expect(partAdded).toBeLessThan(firstText);
    const args = of('response.function_call_arguments.delta').map(({ data }) => data.delta);
    expect(args.length).toBeGreaterThan(1);
    expect(JSON.parse(args.join(''))).toEqual({ path: 'a', content: 'x'.repeat(40) });
    const thinking = of('response.reasoning_summary_text.delta').map(({ data }) => data.delta);
    expect(thinking.join('')).toBe('plan');
    expect(of('response.output_item.added')[2]?.data.item).toMatchObject({
      type: 'function_call',
      call_id: 'call_a',
      name: 'write',
      arguments: '',
    });
  });

  it('ends with response.incomplete when the turn stopped at max_tokens', () => {
    const cut = parse(responseEvents({ ...message, stop_reason: 'max_tokens' }, meta));
    expect(cut.at(-1)?.event).toBe('response.incomplete');
  });
});

describe('partialResponseEvents()', () => {
  it('stops after the first delta', () => {
    const events = parse(partialResponseEvents(message, meta));
    expect(events.at(-1)?.event).toBe('response.reasoning_summary_text.delta');
    expect(events.some(({ event }) => event === 'response.completed')).toBe(false);
  });
});
