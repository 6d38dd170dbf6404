import { createModelCatalog } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import {
  assistant,
  init,
  MODEL,
  ofType,
  run,
  SESSION,
  toolResult,
} from '../../test/helpers/parse-lines.js';

describe('AgentLogParser', () => {
  describe('session', () => {
    it('announces the session once, from system/init', () => {
      const { events, parser } = run([init, { ...init, uuid: 'again' }]);
      expect(ofType(events, 'session.started')).toEqual([
        {
          type: 'session.started',
          timestamp: new Date(0).toISOString(),
          sessionId: SESSION,
          model: MODEL,
          claudeCodeVersion: '2.1.329',
          cwd: '/w',
        },
      ]);
      expect(parser.state).toMatchObject({
        sessionId: SESSION,
        model: MODEL,
        claudeCodeVersion: '2.1.329',
      });
    });

    it('takes the session from a first system/hook_response, then the version from init', () => {
      const { events, parser } = run([
        {
          type: 'system',
          subtype: 'hook_response',
          session_id: SESSION,
          hook_name: 'SessionStart:startup',
          timestamp: 'T1',
        },
        init,
      ]);
      expect(ofType(events, 'session.started')).toEqual([
        { type: 'session.started', timestamp: 'T1', sessionId: SESSION },
      ]);
      expect(parser.state.claudeCodeVersion).toBe('2.1.329');
    });

    it('takes the session from any line when there is no system line', () => {
      const { events } = run([assistant('m1', [{ type: 'text', text: 'hi' }])]);
      expect(ofType(events, 'session.started')[0]?.sessionId).toBe(SESSION);
    });
  });

  describe('assistant messages', () => {
    it('maps text, thinking and tool_use blocks to assistant.action', () => {
      const { events } = run([
        init,
        assistant('m1', [
          { type: 'thinking', thinking: 'plan', signature: 's' },
          { type: 'text', text: 'doing it' },
          { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'ls' } },
          { type: 'redacted_thinking', data: 'x' },
          { type: 'server_tool_use', id: 'st', name: 'web_search', input: {} },
        ]),
      ]);
      expect(ofType(events, 'assistant.action').map((event) => event.data)).toEqual([
        { codonId: 'c#0', action: 'thinking', content: 'plan' },
        { codonId: 'c#0', action: 'message', content: 'doing it' },
        {
          codonId: 'c#0',
          action: 'tool_use',
          content: '',
          toolName: 'Bash',
          toolInput: { command: 'ls' },
          toolUseId: 'tu1',
        },
      ]);
    });

    it('counts a message id once, however many lines repeat it', () => {
      const usage = {
        input_tokens: 100,
        output_tokens: 50,
        cache_creation_input_tokens: 20,
        cache_read_input_tokens: 1000,
      };
      const { events, final } = run([
        init,
        assistant('m1', [{ type: 'thinking', thinking: 'a' }], usage),
        assistant('m1', [{ type: 'text', text: 'b' }], usage),
        assistant('m1', [{ type: 'tool_use', id: 't', name: 'Read', input: {} }], usage),
        assistant('m2', [{ type: 'text', text: 'c' }], { input_tokens: 1, output_tokens: 1 }),
      ]);
      expect(ofType(events, 'assistant.message.counted').map((event) => event.count)).toEqual([
        1, 2,
      ]);
      const deltas = ofType(events, 'token.usage');
      expect(
        deltas.map((event) => [event.final, event.data.inputTokens, event.data.cacheReadTokens]),
      ).toEqual([
        [false, 100, 1000],
        [false, 1, 0],
      ]);
      expect(deltas[0]?.data.totalCost).toBeCloseTo(
        (100 * 3 + 50 * 15 + 20 * 3.75 + 1000 * 0.3) / 1e6,
        12,
      );
      expect(ofType(final, 'token.usage')[0]?.data).toMatchObject({
        inputTokens: 101,
        outputTokens: 51,
      });
    });

    it('adds only what grew when a repeated message reports more tokens', () => {
      const { events } = run([
        init,
        assistant('m1', [{ type: 'text', text: 'a' }], { input_tokens: 100, output_tokens: 1 }),
        assistant('m1', [{ type: 'text', text: 'b' }], { input_tokens: 100, output_tokens: 40 }),
      ]);
      expect(ofType(events, 'token.usage').map((event) => event.data.outputTokens)).toEqual([
        1, 39,
      ]);
    });

    it('counts tokens of an unknown model at 0 USD and warns once', () => {
      const lines = [1, 2].map((n) => ({
        type: 'assistant',
        message: {
          id: `m${n}`,
          model: 'claude-opus-9-9',
          content: [{ type: 'text', text: 'x' }],
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }));
      const { events, final } = run(lines);
      expect(ofType(events, 'warning')).toHaveLength(1);
      expect(ofType(events, 'warning')[0]?.message).toContain('claude-opus-9-9');
      expect(ofType(events, 'token.usage').map((event) => event.data.totalCost)).toEqual([0, 0]);
      expect(ofType(final, 'token.usage')[0]?.data).toMatchObject({
        inputTokens: 20,
        totalCost: 0,
      });
    });

    it('prices with the models option: the deltas, the result usage and no warning', () => {
      const models = createModelCatalog([
        {
          id: 'claude-opus-9-9',
          provider: 'anthropic',
          family: 'opus',
          version: '9.9',
          contextWindow: 200_000,
          price: { input: 1, output: 2, cacheWrite: 0, cacheRead: 0 },
        },
      ]);
      const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000 };
      const line = {
        type: 'assistant',
        message: { id: 'm1', model: 'claude-opus-9-9', content: [], usage },
      };
      const result = { type: 'result', subtype: 'success', usage };
      // Resumed: the final cost prices the result's usage (with the same catalog).
      const { events, parser } = run([line, result], {
        models,
        model: 'claude-opus-9-9',
        resumed: true,
      });
      expect(ofType(events, 'warning')).toEqual([]);
      expect(ofType(events, 'token.usage')[0]?.data.totalCost).toBe(3);
      expect(parser.finalCost()).toMatchObject({ source: 'result-usage', finalCost: 3 });
    });

    it('marks subagent actions and does not count their messages', () => {
      const { events, parser } = run([
        init,
        assistant('m1', [{ type: 'tool_use', id: 'task1', name: 'Task', input: {} }]),
        assistant(
          'sub1',
          [{ type: 'text', text: 'sub' }],
          { input_tokens: 7, output_tokens: 2 },
          { parent_tool_use_id: 'task1' },
        ),
      ]);
      expect(ofType(events, 'assistant.action')[1]?.data).toEqual({
        codonId: 'c#0',
        action: 'message',
        content: 'sub',
        parentToolUseId: 'task1',
      });
      expect(parser.state.assistantMessageCount).toBe(1);
      expect(parser.state.tokens.inputTokens).toBe(17);
    });

    it('accepts a string content and usage at the top level of older lines', () => {
      const { events } = run([
        {
          type: 'assistant',
          message: { id: 'm', model: MODEL, content: 'plain text' },
          usage: { input_tokens: 3, output_tokens: 2 },
        },
      ]);
      expect(ofType(events, 'assistant.action')[0]?.data.content).toBe('plain text');
      expect(ofType(events, 'token.usage')[0]?.data.inputTokens).toBe(3);
    });
  });

  describe('tool results', () => {
    it('matches results to their tool use, with the execution time from the timestamps', () => {
      const { events, parser } = run([
        init,
        {
          ...assistant('m1', [{ type: 'tool_use', id: 'tu1', name: 'Write', input: {} }]),
          timestamp: '2026-01-01T00:00:00.000Z',
        },
        { ...toolResult('tu1', 'File created'), timestamp: '2026-01-01T00:00:01.250Z' },
        toolResult(
          'unknown-id',
          [
            { type: 'text', text: 'a' },
            { type: 'image', source: {} },
            { type: 'text', text: 'b' },
          ],
          { is_error: true },
        ),
      ]);
      expect(ofType(events, 'tool.result').map((event) => event.data)).toEqual([
        {
          codonId: 'c#0',
          toolUseId: 'tu1',
          toolName: 'Write',
          result: 'File created',
          truncated: false,
          originalLength: 12,
          executionTimeMs: 1250,
          isError: false,
        },
        {
          codonId: 'c#0',
          toolUseId: 'unknown-id',
          toolName: 'unknown',
          result: 'a\nb',
          truncated: false,
          originalLength: 3,
          executionTimeMs: 0,
          isError: true,
        },
      ]);
      expect(parser.state.pendingToolUseCount).toBe(0);
    });

    it('cuts long results to 2500 characters plus ... and keeps the original length', () => {
      const { events } = run([init, toolResult('t', 'x'.repeat(3000))]);
      const data = ofType(events, 'tool.result')[0]?.data;
      expect(data?.result).toBe(`${'x'.repeat(2500)}...`);
      expect(data).toMatchObject({ truncated: true, originalLength: 3000 });
    });

    it('renders content without text parts as JSON', () => {
      const content = [{ type: 'tool_reference', tool_name: 'WebFetch' }];
      const { events } = run([
        init,
        toolResult('t', content),
        toolResult('u', { ok: 1 }),
        toolResult('v', undefined),
      ]);
      expect(ofType(events, 'tool.result').map((event) => event.data.result)).toEqual([
        JSON.stringify(content),
        '{"ok":1}',
        '',
      ]);
    });
  });
});
