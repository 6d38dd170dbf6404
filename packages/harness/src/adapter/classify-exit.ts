import type { AgentOutcome } from '../agent-harness.js';
import { deriveFailureReason } from '../classify/derive-failure-reason.js';
import { IDLE_TIMEOUT_MESSAGE_PREFIX } from '../log-lines/harness-log-lines.js';
import type { AgentLogState } from '../parser/agent-log-state.js';
import type { FinalCost } from '../parser/final-cost.js';
import type { ProcessExit } from './agent-process.js';

// Exit classification: how an agent's end (exit code, signal, a kill, an idle timeout, a missing
// result, a log that could not be written) becomes the AgentOutcome. One place for every agent,
// live or replayed, so that a recorded log replays to the outcome the live run had.

/** How the agent ended, as its process (or a replay) saw it: the input of `finish()`. */
export interface AgentExit {
  /** The exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, also when it trapped the signal and exited with 128 + n. */
  signal?: NodeJS.Signals;
  /** Stopped by `kill()` or the abort signal. */
  killed: boolean;
  /** Stopped by the idle watchdog (or the agent's own API timeout). */
  timedOut: boolean;
}

/** Why the harness stopped a live agent, if it did. */
export interface StopFlags {
  /** `kill()` or the abort signal. */
  killed: boolean;
  /** The idle watchdog, or the agent's own API timeout. */
  timedOut: boolean;
}

/**
 * The {@link AgentExit} of a process that has ended: its exit code and signal as the process
 * reported them (a trapped SIGTERM, exit 143, is reported as SIGTERM by `AgentProcess`), and why
 * the harness stopped it. One correction, for agents that exit 0 although their run failed (Pi
 * does when its last request failed): when the log holds an error result and no success, the exit
 * code is 1, as Claude Code exits then, and as a replay of the log derives it.
 *
 * @param state the parser's state once every line of the agent is written and parsed.
 */
export function classifyExit(
  exit: ProcessExit,
  stops: StopFlags,
  state: Readonly<AgentLogState>,
): AgentExit {
  const failed = state.errorResultText !== undefined && !state.successResult;
  const exitCode = exit.exitCode === 0 && exit.signal === undefined && failed ? 1 : exit.exitCode;
  return {
    exitCode,
    ...(exit.signal !== undefined && { signal: exit.signal }),
    killed: stops.killed,
    timedOut: stops.timedOut,
  };
}

/** What is known once the agent has ended: the inputs of {@link agentOutcome}. */
export interface OutcomeEvidence {
  exit: AgentExit;
  /** The parser's state after the last line. */
  state: Readonly<AgentLogState>;
  final: FinalCost;
  /** The message of a harness crash (the log could not be written). */
  crashMessage?: string;
}

/**
 * The outcome of an attempt. A kill is read from the exit or from the log's kill note (so a
 * replayed log ends killed too); a timeout from the exit, a synthetic API timeout, or the idle
 * watchdog's result in the log. The failure reason follows `deriveFailureReason`: none for a
 * success, a kill or an exceeded context; a made-up one for a run without a result.
 */
export function agentOutcome({ exit, state, final, crashMessage }: OutcomeEvidence): AgentOutcome {
  const killed = exit.killed || state.killNoted;
  const failureReason = deriveFailureReason({
    ...(state.errorResultText !== undefined && { errorResultText: state.errorResultText }),
    ...(crashMessage !== undefined && { crashMessage }),
    syntheticTimeout: state.syntheticTimeout,
    sessionEstablished: state.sessionId !== undefined,
    successResult: state.successResult,
    exitCode: exit.exitCode,
    killed,
    contextExceeded: state.contextExceeded,
  });
  const outcome: AgentOutcome = {
    exitCode: exit.exitCode,
    resultReceived: state.resultReceived,
    finalCost: final.finalCost,
    finalTokens: final.finalTokens,
    contextExceeded: state.contextExceeded,
    killed,
    // A replayed log carries the watchdog's synthetic result; the outcome says so too.
    timedOut:
      exit.timedOut ||
      state.syntheticTimeout ||
      (state.errorResultText?.startsWith(IDLE_TIMEOUT_MESSAGE_PREFIX) ?? false),
    assistantMessageCount: state.assistantMessageCount,
  };
  if (exit.signal !== undefined) outcome.signal = exit.signal;
  if (state.sessionId !== undefined) outcome.sessionId = state.sessionId;
  if (final.modelUsage) outcome.modelUsage = final.modelUsage;
  if (failureReason) outcome.failureReason = failureReason;
  if (state.errorResultText !== undefined) outcome.errorResultText = state.errorResultText;
  if (state.successResultText !== undefined) outcome.resultText = state.successResultText;
  return outcome;
}
