import { describe, expect, it } from 'vitest';
import { classifyProbeFailure, oneSafeLine } from './classify-probe-failure.js';

describe('classifyProbeFailure()', () => {
  it.each([
    ['Failed to authenticate. API Error: 401 Scripted error', 'bad-key'],
    ['Invalid API key · Please run /login', 'bad-key'],
    ['403 {"error":{"type":"permission_error"}} forbidden', 'bad-key'],
    ['401 Incorrect API key provided: sk-bad', 'bad-key'],
    [
      "There's an issue with the selected model (claude-sonnet-5-5). It may not exist or you may not have access to it.",
      'model-not-served',
    ],
    ['404 The model `gpt-9` does not exist or you do not have access to it.', 'model-not-served'],
    ['API Error: 404 {"type":"not_found_error","message":"model: x"}', 'model-not-served'],
    [
      'API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)',
      'unreachable',
    ],
    ['getaddrinfo ENOTFOUND api.example.invalid', 'unreachable'],
    [
      'Request timed out. If the API is slow to answer, set API_TIMEOUT_MS above 1500.',
      'unreachable',
    ],
    ['API Error: 500 Internal server error', 'other'],
  ] as const)('sorts %j as %s', (text, kind) => {
    expect(classifyProbeFailure({ text })).toBe(kind);
  });

  it('reads no status code out of a URL or a port', () => {
    expect(classifyProbeFailure({ text: 'Scripted error at http://127.0.0.1:401/v1/404' })).toBe(
      'other',
    );
  });

  it('counts a silent agent stopped by a timeout as unreachable', () => {
    expect(classifyProbeFailure({ text: 'the agent stopped', timedOut: true })).toBe('unreachable');
    expect(classifyProbeFailure({ text: 'the agent stopped' })).toBe('other');
  });

  it('says a refused key first when the text also names a connection problem', () => {
    expect(classifyProbeFailure({ text: '401 unauthorized; connection closed' })).toBe('bad-key');
  });
});

describe('oneSafeLine()', () => {
  it('joins lines and shows control characters escaped', () => {
    expect(oneSafeLine('bad\n\u001b]52;c;aGk=\u0007 key\u202e')).toBe(
      'bad \\u001b]52;c;aGk=\\u0007 key\\u202e',
    );
  });

  it('cuts a long text', () => {
    expect(oneSafeLine('x'.repeat(400), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
