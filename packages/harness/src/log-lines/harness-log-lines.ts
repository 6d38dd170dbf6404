import type { AgentLogLine, AgentResultLine } from '@hankweave/types';
import { resultLine } from './claude-log-lines.js';

// The lines the harness writes into an agent log on its own account: what the agent printed that
// is not a JSON line, its stderr, the kill note and the idle watchdog's result. The parser, the
// replay and the runtime's replay of an execution read them back (see the README's "How a stop
// is recorded"), so their shape is fixed here, once.

/** Start of the watchdog's message; it contains "timeout", so it classifies as a timeout. */
export const IDLE_TIMEOUT_MESSAGE_PREFIX = 'Agent idle timeout:';

/** The watchdog's message for `idleTimeoutMs`. */
export function idleTimeoutMessage(idleTimeoutMs: number): string {
  return `${IDLE_TIMEOUT_MESSAGE_PREFIX} no output for ${idleTimeoutMs / 1000} s; the harness stopped the agent.`;
}

/**
 * The result line the idle watchdog writes (reference §4.2), in the shape Claude Code's own error
 * results have, so that the parser and the classifier treat it like any other error result: the
 * outcome is a retriable `timeout`, and a replay of the log says so too.
 */
export function idleTimeoutResultLine(input: {
  idleTimeoutMs: number;
  sessionId: string | undefined;
  timestamp: string;
}): AgentResultLine {
  return resultLine({
    subtype: 'error',
    isError: true,
    result: idleTimeoutMessage(input.idleTimeoutMs),
    numTurns: 0,
    sessionId: input.sessionId ?? '',
    timestamp: input.timestamp,
  });
}

/**
 * The note the harness writes before it stops an agent on purpose, so that the log (and a replay
 * of it) says the attempt was killed: `{"type":"harness","subtype":"killed","timestamp","reason"}`.
 */
export function killNoteLine(reason: string | undefined, timestamp: string): AgentLogLine {
  return { type: 'harness', subtype: 'killed', timestamp, reason: reason ?? 'kill' };
}

/** One stderr line of the agent: `{"type":"stderr","timestamp","message"}`. */
export function stderrLine(message: string, timestamp: string): AgentLogLine {
  return { type: 'stderr', timestamp, message };
}

/** A stdout line of the agent that is not a JSON object: `{"type":"stdout","timestamp","text"}`. */
export function stdoutTextLine(text: string, timestamp: string): AgentLogLine {
  return { type: 'stdout', timestamp, text };
}
