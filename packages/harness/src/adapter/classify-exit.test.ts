import { describe, expect, it } from 'vitest';
import { AgentLogParser } from '../parser/agent-log-parser.js';
import { agentOutcome, classifyExit } from './classify-exit.js';

const noStop = { killed: false, timedOut: false };

/** The parser's state and final cost after `lines`. */
function parsed(lines: object[]) {
  const parser = new AgentLogParser({ codonId: 'c#0', model: 'claude-sonnet-4-5' });
  for (const line of lines) parser.push(JSON.stringify(line));
  parser.finish();
  return { state: parser.state, final: parser.finalCost() };
}

const init = { type: 'system', subtype: 'init', session_id: 's1' };
const success = { type: 'result', subtype: 'success', is_error: false, result: 'Done.' };
const failure = { type: 'result', subtype: 'error', is_error: true, result: '429 slow down' };
const killNote = { type: 'harness', subtype: 'killed', reason: 'budget' };
const idleResult = {
  type: 'result',
  subtype: 'error',
  is_error: true,
  result: 'Agent idle timeout: no output for 3 s; the harness stopped the agent.',
};

describe('classifyExit()', () => {
  it('reports exit 1 for an agent that exits 0 after an error result and no success', () => {
    const { state } = parsed([init, failure]);
    expect(classifyExit({ exitCode: 0 }, noStop, state)).toEqual({
      exitCode: 1,
      killed: false,
      timedOut: false,
    });
  });

  it('keeps exit 0 after a success, also with a later error result', () => {
    const { state } = parsed([init, success, failure]);
    expect(classifyExit({ exitCode: 0 }, noStop, state).exitCode).toBe(0);
  });

  it('keeps the code and signal of a stopped agent, and why it was stopped', () => {
    const { state } = parsed([init, failure]);
    expect(
      classifyExit({ exitCode: 143, signal: 'SIGTERM' }, { killed: true, timedOut: false }, state),
    ).toEqual({ exitCode: 143, signal: 'SIGTERM', killed: true, timedOut: false });
  });
});

describe('agentOutcome()', () => {
  it('is a success without failure reason after a success result and exit 0', () => {
    const outcome = agentOutcome({
      exit: { exitCode: 0, ...noStop },
      ...parsed([init, success]),
    });
    expect(outcome).toMatchObject({ exitCode: 0, resultReceived: true, killed: false });
    expect(outcome.failureReason).toBeUndefined();
  });

  it('is killed, without failure reason, when the log has the kill note (a replayed kill)', () => {
    const outcome = agentOutcome({
      exit: { exitCode: null, signal: 'SIGTERM', ...noStop },
      ...parsed([init, killNote]),
    });
    expect(outcome).toMatchObject({ killed: true, signal: 'SIGTERM', resultReceived: false });
    expect(outcome.failureReason).toBeUndefined();
  });

  it("is a retriable timeout when the log has the idle watchdog's result", () => {
    const outcome = agentOutcome({
      exit: { exitCode: 1, ...noStop },
      ...parsed([init, idleResult]),
    });
    expect(outcome).toMatchObject({
      timedOut: true,
      killed: false,
      failureReason: { type: 'timeout', retriable: true },
    });
  });

  it('makes up a failure for an agent that ended without a result', () => {
    expect(
      agentOutcome({ exit: { exitCode: 1, ...noStop }, ...parsed([init]) }).failureReason,
    ).toMatchObject({ type: 'api-error', retriable: true });
    expect(
      agentOutcome({ exit: { exitCode: 1, ...noStop }, ...parsed([]) }).failureReason,
    ).toMatchObject({ type: 'api-error', retriable: false });
  });

  it('names the crash of a log write as the failure, first of all', () => {
    const outcome = agentOutcome({
      exit: { exitCode: 0, ...noStop },
      ...parsed([init, success]),
      crashMessage: 'Cannot write the agent log /x (ENOSPC: no space left on device)',
    });
    expect(outcome.failureReason).toMatchObject({ retriable: false });
  });
});
