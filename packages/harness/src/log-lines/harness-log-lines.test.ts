import { describe, expect, it } from 'vitest';
import { AgentLogParser } from '../parser/agent-log-parser.js';
import {
  idleTimeoutResultLine,
  killNoteLine,
  stderrLine,
  stdoutTextLine,
} from './harness-log-lines.js';

const T = '2026-01-01T00:00:00.000Z';

// The exact text of the harness's own lines: recorded logs, the parser, ReplayHarness and the
// runtime's replay of an execution all read them (see the README, "How a stop is recorded").
describe('harness log lines', () => {
  it('write the kill note as the parser and the replays recognise it', () => {
    const line = JSON.stringify(killNoteLine('budget', T));
    expect(line).toBe(`{"type":"harness","subtype":"killed","timestamp":"${T}","reason":"budget"}`);
    expect(JSON.stringify(killNoteLine(undefined, T))).toContain('"reason":"kill"');
    const parser = new AgentLogParser({ codonId: 'c#0' });
    parser.push(line);
    expect(parser.state.killNoted).toBe(true);
  });

  it("write the idle watchdog's result as an error result that classifies as a timeout", () => {
    const line = JSON.stringify(
      idleTimeoutResultLine({ idleTimeoutMs: 180_000, sessionId: 's1', timestamp: T }),
    );
    expect(line).toBe(
      `{"type":"result","subtype":"error","is_error":true,"result":"Agent idle timeout: no output for 180 s; the harness stopped the agent.","num_turns":0,"duration_ms":0,"duration_api_ms":0,"session_id":"s1","timestamp":"${T}"}`,
    );
    expect(
      idleTimeoutResultLine({ idleTimeoutMs: 3000, sessionId: undefined, timestamp: T }),
    ).toMatchObject({ session_id: '' });
  });

  it('write stderr and non-JSON stdout lines in their documented shapes', () => {
    expect(JSON.stringify(stderrLine('boom', T))).toBe(
      `{"type":"stderr","timestamp":"${T}","message":"boom"}`,
    );
    expect(JSON.stringify(stdoutTextLine('Loading', T))).toBe(
      `{"type":"stdout","timestamp":"${T}","text":"Loading"}`,
    );
  });
});
