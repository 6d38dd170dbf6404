import { describe, expect, it } from 'vitest';
import {
  conversationKey,
  isSideRequest,
  lastToolResultText,
  lastUserMessageText,
  messagesRequestSchema,
  systemText,
  toolIdPrefix,
  workingDirectory,
} from './request-view.js';

const request = (body: Record<string, unknown>) =>
  messagesRequestSchema.parse({ model: 'claude-haiku-4-5', messages: [], ...body });

describe('request-view', () => {
  describe('systemText()', () => {
    it('reads a string or joins text blocks', () => {
      expect(systemText(request({ system: 'plain' }))).toBe('plain');
      const blocks = [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ];
      expect(systemText(request({ system: blocks }))).toBe('one\ntwo');
    });

    it('includes system messages that newer agents send inside messages', () => {
      const body = request({
        system: 'top',
        messages: [
          { role: 'system', content: 'MARKER in a system message' },
          { role: 'user', content: 'go' },
        ],
      });
      expect(systemText(body)).toBe('top\nMARKER in a system message');
      expect(conversationKey(body)).toBe('go');
    });
  });

  describe('lastToolResultText()', () => {
    it('joins string and text-part tool results of the last user message', () => {
      const body = request({
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'a', content: 'first' },
              {
                type: 'tool_result',
                tool_use_id: 'b',
                content: [{ type: 'text', text: 'second' }],
              },
              { type: 'text', text: 'note' },
            ],
          },
        ],
      });
      expect(lastToolResultText(body)).toBe('first\nsecond');
      expect(lastUserMessageText(body)).toBe('first\nsecond\nnote');
    });
  });

  describe('conversationKey()', () => {
    it('is the first user text without <system-reminder> blocks', () => {
      const body = request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: '<system-reminder>date</system-reminder>' },
              { type: 'text', text: 'the prompt' },
            ],
          },
          { role: 'assistant', content: 'x' },
          { role: 'user', content: 'later' },
        ],
      });
      expect(conversationKey(body)).toBe('the prompt');
    });
  });

  describe('workingDirectory()', () => {
    it("finds Claude Code's primary working directory", () => {
      const body = request({
        messages: [
          {
            role: 'user',
            content: ' - Primary working directory: /tmp/work dir\n - Is a git repository: false',
          },
        ],
      });
      expect(workingDirectory(body)).toBe('/tmp/work dir');
      expect(
        workingDirectory(request({ messages: [{ role: 'user', content: 'hi' }] })),
      ).toBeUndefined();
    });
  });

  describe('isSideRequest()', () => {
    const noTools = request({ messages: [{ role: 'user', content: 'title?' }] });
    const withTools = request({
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ name: 'Bash' }],
    });

    it('is true for a Claude Code request without tools', () => {
      expect(
        isSideRequest({ 'user-agent': 'claude-cli/2.1.329 (external, sdk-cli)' }, noTools),
      ).toBe(true);
      expect(isSideRequest({ 'x-app': 'cli' }, noTools)).toBe(true);
    });

    it("is false for Claude Code's agent loop and for other clients", () => {
      expect(isSideRequest({ 'user-agent': 'claude-cli/2.1.329' }, withTools)).toBe(false);
      expect(isSideRequest({ 'user-agent': 'ai/7.0.173' }, noTools)).toBe(false);
    });
  });
});

describe('toolIdPrefix()', () => {
  const address = { conversation: 1, turn: 0, alternative: 0 };
  const call = (id: string) => ({
    role: 'assistant' as const,
    content: [{ type: 'tool_use', id, name: 'Bash', input: {} }],
  });
  it("keeps the turn's own prefix, and adds the request's number when the history has it", () => {
    const fresh = { model: 'm', messages: [{ role: 'user' as const, content: 'go' }] };
    expect(toolIdPrefix(fresh, address, 7)).toBe('sm1t0a0');
    // A resumed session plays turn 0 again: the same id twice would lose the second result.
    const resumed = {
      model: 'm',
      messages: [{ role: 'user' as const, content: 'go' }, call('toolu_sm1t0a0b0')],
    };
    expect(toolIdPrefix(resumed, address, 7)).toBe('sm1t0a0r7');
    // Another turn's ids do not count.
    const other = { model: 'm', messages: [call('toolu_sm11t0a0b0'), call('toolu_sm1t0a0r3b0x')] };
    expect(toolIdPrefix(other, address, 7)).toBe('sm1t0a0');
  });
});
