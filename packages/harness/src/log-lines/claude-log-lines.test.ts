import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent-event.js';
import { AgentLogParser } from '../parser/agent-log-parser.js';
import {
  apiRetryLine,
  assistantLine,
  compactBoundaryLine,
  resultLine,
  systemInitLine,
  toolResultLine,
} from './claude-log-lines.js';

const T = '2026-01-01T00:00:00.000Z';
const usage = {
  input_tokens: 100,
  output_tokens: 10,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

/** What the parser makes of the lines, as the agent log pipeline feeds them. */
function parse(lines: object[], autoCompact = false) {
  const parser = new AgentLogParser({ codonId: 'c#0', model: 'gpt-5.2', autoCompact });
  const events: AgentEvent[] = lines.flatMap((line) =>
    parser.push(JSON.stringify({ ...line, timestamp: T })),
  );
  return { events, state: parser.state };
}

describe('Claude log line builders', () => {
  it('build a session the parser reads like Claude Code: init, message, tool call, result', () => {
    const { events, state } = parse([
      systemInitLine({ sessionId: 's1', model: 'gpt-5.2', cwd: '/w', agent: 'pi' }),
      assistantLine({
        sessionId: 's1',
        id: 'm1',
        model: 'gpt-5.2',
        content: [
          { type: 'text', text: 'Writing.' },
          { type: 'tool_use', id: 't1', name: 'write', input: { path: 'a' } },
        ],
        stopReason: 'tool_use',
        usage,
      }),
      toolResultLine({
        sessionId: 's1',
        toolUseId: 't1',
        content: [{ type: 'text', text: 'ok' }],
        isError: false,
      }),
      resultLine({
        subtype: 'success',
        isError: false,
        result: 'Done.',
        sessionId: 's1',
        numTurns: 1,
        usage,
        totalCostUsd: 0.5,
      }),
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'session.started',
      'assistant.message.counted',
      'token.usage',
      'assistant.action',
      'assistant.action',
      'tool.result',
      'result',
    ]);
    expect(events[0]).toMatchObject({ sessionId: 's1', model: 'gpt-5.2', cwd: '/w' });
    expect(events.find((event) => event.type === 'tool.result')).toMatchObject({
      data: { toolUseId: 't1', toolName: 'write', result: 'ok', isError: false },
    });
    expect(state).toMatchObject({ successResult: true, successResultText: 'Done.' });
  });

  it('build an error result the classifier reads, and a retry the parser reports', () => {
    const { events, state } = parse([
      apiRetryLine({ sessionId: 's1', attempt: 1, maxRetries: 3, errorStatus: 429, error: 'x' }),
      resultLine({
        subtype: 'error',
        isError: true,
        result: '429 slow down',
        sessionId: 's1',
        numTurns: 0,
      }),
    ]);
    expect(events[0]).toMatchObject({
      type: 'api.retry',
      attempt: 1,
      maxRetries: 3,
      errorStatus: 429,
    });
    expect(state).toMatchObject({ successResult: false, errorResultText: '429 slow down' });
  });

  it('build a compact boundary that is context exceeded when the session compacts', () => {
    const { state } = parse([compactBoundaryLine({ sessionId: 's1' })], true);
    expect(state.contextExceeded).toBe(true);
  });

  it("keep Claude Code's field order, so the log reads like the agent's own", () => {
    expect(
      JSON.stringify(
        resultLine({ subtype: 'error', isError: true, result: 'r', sessionId: 's', numTurns: 0 }),
      ),
    ).toBe(
      '{"type":"result","subtype":"error","is_error":true,"result":"r","num_turns":0,"duration_ms":0,"duration_api_ms":0,"session_id":"s"}',
    );
  });
});
