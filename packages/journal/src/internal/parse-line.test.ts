import { describe, expect, it } from 'vitest';
import { deterministicEventId, parseEventLine } from './parse-line.js';

describe('parseEventLine()', () => {
  const line = '{"type":"info","timestamp":"t","data":{"message":"m"}}';

  it('keeps an event of a type this version does not know', () => {
    const event = parseEventLine('{"id":"evt_1","type":"new.thing","timestamp":"t","data":1}', 0);
    expect(event).toEqual({ id: 'evt_1', type: 'new.thing', timestamp: 't', data: 1 });
  });

  it('gives an id-less line an id from its number and bytes', () => {
    expect(parseEventLine(line, 3)?.id).toBe(deterministicEventId(3, line));
    expect(deterministicEventId(3, line)).not.toBe(deterministicEventId(4, line));
    expect(deterministicEventId(3, line)).toMatch(/^evt_[0-9a-f]{20}$/);
  });

  it.each([
    '',
    'null',
    '[1]',
    '"text"',
    '{"type":"info"}',
    '{"type":"","timestamp":"t","data":{}}',
    '{"id":5,"type":"info","timestamp":"t","data":{}}',
    '{"type":"info","timestamp":"t","data":{"message":"m"',
  ])('treats %j as corrupt', (text) => {
    expect(parseEventLine(text, 0)).toBeUndefined();
  });
});
