import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { threadEvents } from './thread-events.js';

let n = 0;
const event = (type: string, data: Record<string, unknown>): HankweaveEvent =>
  ({
    id: `evt_${++n}`,
    type,
    timestamp: '2026-01-01T00:00:00Z',
    data,
  }) as unknown as HankweaveEvent;

describe('threadEvents()', () => {
  it('puts a tool result under its call and keeps everything else in order', () => {
    const call = event('assistant.action', {
      action: 'tool_use',
      toolUseId: 't1',
      toolName: 'Bash',
    });
    const say = event('assistant.action', { action: 'message', content: 'hi' });
    const result = event('tool.result', { toolUseId: 't1', toolName: 'Bash', result: 'ok' });
    const items = threadEvents([call, say, result]);
    expect(items.map((item) => item.event.id)).toEqual([call.id, say.id]);
    expect(items[0]?.result?.id).toBe(result.id);
  });
  it('keeps a result whose call is not loaded as its own item', () => {
    const result = event('tool.result', { toolUseId: 'gone', toolName: 'Read', result: 'x' });
    expect(threadEvents([result]).map((item) => item.event.id)).toEqual([result.id]);
  });
  it('does not attach a second result to the same call', () => {
    const call = event('assistant.action', { action: 'tool_use', toolUseId: 't2' });
    const first = event('tool.result', { toolUseId: 't2' });
    const second = event('tool.result', { toolUseId: 't2' });
    expect(threadEvents([call, first, second])).toHaveLength(2);
  });
});
