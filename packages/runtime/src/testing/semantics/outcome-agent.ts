import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttemptOutcome, SessionOutcome } from '@hankweave/hank';
import type { AgentStartOptions } from '@hankweave/harness';
import { buildAgentLog, type FakeAgentScript, FakeHarness } from '@hankweave/harness/testing';
import { endedByCrash } from '@hankweave/state';
import { type HankweaveState, isTerminalCodonStatus } from '@hankweave/types';
import { cutShortBySibling, interpreterId } from './observe.js';

/**
 * What one unit of cost is: the dollars and the usage of a turn that costs them (priced by the
 * model catalog, so the runtime's own figures come out exact). The default, 1,000 input and 200
 * output tokens of claude-sonnet-4-5 ($3 / $15 per million), is $0.006.
 */
export interface CostUnit {
  dollars: number;
  inputTokens: number;
  outputTokens: number;
}
export const DEFAULT_COST_UNIT: Readonly<CostUnit> = {
  dollars: 0.006,
  inputTokens: 1000,
  outputTokens: 200,
};

/** What {@link outcomeAgent} needs besides the outcomes. */
export interface OutcomeAgentOptions {
  /** The outcome of an attempt, with a session for every index the runtime may reach. */
  outcome(codonId: string, attempt: number): AttemptOutcome;
  /** The runtime's state now: how many executions a codon has, which session an attempt is in. */
  state(): HankweaveState;
  /** How a person stops a codon (`codon.skip`, or Ctrl-C: the runtime shuts down). */
  stop(kind: 'skip' | 'interrupt', codonId: string): void;
  /** The file an attempt of `codonId` writes as it starts (its runtime id as content), if any. */
  writes?(codonId: string): string | undefined;
  costUnit?: CostUnit;
}

// The error results the agent prints; the harness classifies them as a real agent's.
const ERROR_TEXT = {
  'context-exceeded': 'Prompt is too long',
  'retriable-error':
    'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
  'fatal-error':
    'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"invalid request"}}',
} as const;

/**
 * How many executions of `codonId` reached a final status of their own (not one crash detection
 * gave an attempt its server's death cut short, nor one a sibling branch's stop cut short, see
 * `cutShortBySibling`): the key of its next outcome.
 */
export function finishedExecutions(state: HankweaveState, codonId: string): number {
  let count = 0;
  for (const run of state.runs) {
    for (const record of run.codons) {
      if (record.codonId !== codonId || !isTerminalCodonStatus(record.status)) continue;
      if (!endedByCrash(record) && !cutShortBySibling(state, record)) count++;
    }
  }
  return count;
}

/** The session of the running attempt of `codonId` that starts now (0 = first, n = extension n). */
function sessionIndex(state: HankweaveState, codonId: string): number {
  const run = state.runs.find((candidate) => candidate.runId === state.currentRunId);
  const record = run?.codons.findLast((candidate) => candidate.codonId === codonId) as
    | { status: string; extensionCount?: number }
    | undefined;
  return record && !isTerminalCodonStatus(record.status) ? (record.extensionCount ?? 0) : 0;
}

/**
 * A {@link FakeHarness} that plays outcomes: each start looks up the attempt's outcome (keyed by
 * the runtime's own durable counters, so a crash-interrupted attempt replays the same one) and
 * prints one turn of the session's cost, then a success or error result. A plateau vote is
 * written to `result.json` (with a nonce: the runtime counts a file only when it changed). A skip
 * or an interrupt prints one free message, then waits until the runtime has counted it before the
 * person stops the codon, so what the stop leaves behind never depends on timing.
 */
export function outcomeAgent(options: OutcomeAgentOptions): FakeHarness {
  const unit = options.costUnit ?? DEFAULT_COST_UNIT;
  return new FakeHarness({
    script: (start) => {
      const state = options.state();
      const attempt = finishedExecutions(state, start.codonId);
      const outcome = options.outcome(interpreterId(state, start.codonId), attempt);
      const index = sessionIndex(state, start.codonId);
      const file = index === 0 ? options.writes?.(start.codonId) : undefined;
      if (file !== undefined) writeFileSync(join(start.cwd, file), `${start.codonId}\n`);
      if (outcome.stoppedBy) {
        stopOnceCounted(options, start, outcome.stoppedBy);
        return {
          scenario: {
            turns: [{ text: 'working', usage: { inputTokens: 0, outputTokens: 0 } }],
            result: 'none',
          },
          hang: true,
        };
      }
      const session = outcome.sessions?.[index];
      if (!session) {
        throw new Error(
          `No session ${index} in the outcome of ${start.codonId} attempt ${attempt}`,
        );
      }
      if (outcome.vote) writeVote(start, outcome.vote, `${attempt}.${index}`);
      return { lines: sessionLines(start, session, unit) };
    },
  });
}

function sessionLines(start: AgentStartOptions, session: SessionOutcome, unit: CostUnit): string[] {
  const units = Math.round(session.cost / unit.dollars);
  if (Math.abs(units * unit.dollars - session.cost) > 1e-12) {
    throw new Error(`A session cost of ${session.cost} is not a multiple of ${unit.dollars}`);
  }
  const usage = { inputTokens: units * unit.inputTokens, outputTokens: units * unit.outputTokens };
  return buildAgentLog({
    model: start.model,
    ...(start.resumeSessionId ? { sessionId: start.resumeSessionId } : {}),
    turns: [{ text: 'step', usage }],
    result: session.end === 'ok' ? 'success' : { error: ERROR_TEXT[session.end] },
  });
}

function writeVote(start: AgentStartOptions, vote: string, nonce: string): void {
  writeFileSync(
    join(start.cwd, 'result.json'),
    JSON.stringify({ decision: vote, reason: `${start.codonId} ${nonce} ${randomUUID()}` }),
  );
}

/** Stops the codon once its running record shows the one message the agent printed. */
function stopOnceCounted(
  options: OutcomeAgentOptions,
  start: AgentStartOptions,
  kind: 'skip' | 'interrupt',
): void {
  const timer = setInterval(() => {
    const state = options.state();
    const run = state.runs.find((candidate) => candidate.runId === state.currentRunId);
    const record = run?.codons.findLast((candidate) => candidate.codonId === start.codonId) as
      | { status: string; assistantMessageCount?: number }
      | undefined;
    if (record?.status !== 'running' || (record.assistantMessageCount ?? 0) < 1) return;
    clearInterval(timer);
    options.stop(kind, start.codonId);
  }, 2);
}

export type { FakeAgentScript };
