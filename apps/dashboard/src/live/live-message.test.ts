import { describe, expect, it } from 'vitest';
import { parseLiveMessage } from './live-message.js';

const event = {
  id: 'evt_1',
  type: 'info',
  timestamp: '2026-01-01T00:00:00Z',
  data: { message: 'hi' },
};
const detail = { summary: { id: 'x' }, runTree: [], bars: [], loops: [] };

describe('parseLiveMessage()', () => {
  it('reads a bare event under the hankweave event name', () => {
    expect(parseLiveMessage('hankweave', JSON.stringify(event))).toEqual({ kind: 'event', event });
  });
  it('reads a LiveMessage envelope under any event name', () => {
    expect(parseLiveMessage('message', JSON.stringify({ kind: 'event', event }))).toEqual({
      kind: 'event',
      event,
    });
    expect(parseLiveMessage('state', JSON.stringify({ kind: 'state', detail }))).toEqual({
      kind: 'state',
      detail,
    });
  });
  it('reads a bare ExecutionDetail under the state event name', () => {
    expect(parseLiveMessage('state', JSON.stringify(detail))).toMatchObject({ kind: 'state' });
  });
  it('reads the end status from an object, a string or nothing', () => {
    expect(parseLiveMessage('end', '{"status":"failed"}')).toEqual({
      kind: 'end',
      status: 'failed',
    });
    expect(parseLiveMessage('end', '"completed"')).toEqual({ kind: 'end', status: 'completed' });
    expect(parseLiveMessage('end', '')).toEqual({ kind: 'end', status: 'completed' });
  });
  it('skips malformed or unknown payloads', () => {
    expect(parseLiveMessage('hankweave', '{not json')).toBeUndefined();
    expect(parseLiveMessage('hankweave', '{"no":"type"}')).toBeUndefined();
    expect(parseLiveMessage('state', '{"bars":1}')).toBeUndefined();
    expect(parseLiveMessage('other', JSON.stringify(event))).toBeUndefined();
  });
});
