import { relative } from 'node:path';
import type { AgentOutcome, AgentSession } from '@hankweave/harness';
import { addTokenUsage, type FailureReason, type TokenUsage } from '@hankweave/types';
import { agentLogPath } from '../execution/layout.js';
import { renderPromptText } from '../prompt/prompt-builder.js';
import { emit, transition } from '../runtime/runtime-context.js';
import { consumeAgentEvents } from './agent-stream.js';
import { type CodonAttempt, moveCodon } from './codon-attempt.js';
import type { StartResult } from './start-codon.js';

const DEFAULT_IDLE_TIMEOUT_MS = 180_000;

/** What the agent did over every session of an attempt (the first and its extensions). */
export interface AgentRun {
  /** How the last session ended. */
  outcome: AgentOutcome;
  /** Whether any session exceeded the context window. */
  contextExceeded: boolean;
  /** Final cost and tokens summed over the sessions. */
  finalCost: number;
  finalTokens: TokenUsage;
}

/** How the agent phase ended: it ran (whatever the outcome), or it could not start at all. */
export type RunAgentResult =
  | { kind: 'ran'; run: AgentRun }
  | { kind: 'failed'; failureReason: FailureReason };

/**
 * `initializing` → `running` (reference §5.5 steps 4–7): starts the agent through the harness,
 * turns its events into transitions and journaled events, and extends the session with
 * `exhaustWithPrompt` while it keeps succeeding, up to `maxExtensions`.
 */
export async function runAgent(
  attempt: CodonAttempt,
  start: Extract<StartResult, { kind: 'ready' }>,
): Promise<RunAgentResult> {
  const { context, codon, codonId, runId, control } = attempt;
  const logPath = agentLogPath(context.layout, runId, codonId);
  let run: AgentRun | undefined;
  let resumeSessionId = start.resumeSessionId;
  let prompt = start.prompts.prompt;
  for (let extensionCount = 0; ; ) {
    let session: AgentSession;
    try {
      session = await context.harness.start({
        codonId,
        runId,
        model: codon.model,
        prompt,
        ...(start.prompts.appendSystemPrompt
          ? { appendSystemPrompt: start.prompts.appendSystemPrompt }
          : {}),
        cwd: context.layout.agentRoot,
        ...(codon.env ? { env: codon.env } : {}),
        ...(resumeSessionId ? { resumeSessionId } : {}),
        logPath,
        idleTimeoutMs: idleTimeoutMs(attempt),
        autoCompact: codon.autoCompact,
        signal: control.abort.signal,
      });
    } catch (error) {
      // An extension that cannot start leaves the codon as the previous session ended it.
      if (run) return { kind: 'ran', run };
      return {
        kind: 'failed',
        failureReason: {
          type: 'unknown',
          retriable: false,
          message: `The agent could not start: ${(error as Error).message}`,
        },
      };
    }
    control.session = session;
    if (control.status === 'starting') {
      moveCodon(attempt, {
        to: 'initializing',
        metadata: {
          claudePid: session.pid,
          claudeLogPath: relative(context.layout.hankweaveDir, logPath),
          ...(resumeSessionId ? { previousSessionId: resumeSessionId } : {}),
        },
      });
    }
    if (control.stopReason) void session.kill('stop requested');
    const stream = await consumeAgentEvents(attempt, session, {
      ...(resumeSessionId ? { previousSessionId: resumeSessionId } : {}),
      ...(start.prompts.promptMetadata ? { promptMetadata: start.prompts.promptMetadata } : {}),
    });
    const outcome = await session.outcome;
    run = {
      outcome,
      contextExceeded:
        (run?.contextExceeded ?? false) || outcome.contextExceeded || stream.contextExceeded,
      finalCost: (run?.finalCost ?? 0) + outcome.finalCost,
      finalTokens: run ? addTokenUsage(run.finalTokens, outcome.finalTokens) : outcome.finalTokens,
    };
    const extensionPrompt = codon.exhaustWithPrompt;
    if (!extensionPrompt || !outcome.sessionId || !mayExtend(attempt, run, extensionCount)) {
      return { kind: 'ran', run };
    }
    extensionCount++;
    resumeSessionId = outcome.sessionId;
    prompt = renderPromptText(extensionPrompt, start.paths);
    transition(context, {
      type: 'ExtensionCountUpdated',
      data: { runId, codonId, extensionCount },
    });
    emit(context, 'codon.extended', {
      codonId,
      codonName: codon.name,
      extensionNumber: extensionCount,
      exhaustWithPrompt: extensionPrompt,
      cumulativeTokens: run.finalTokens,
      cumulativeCost: run.finalCost,
    });
  }
}

/** True when the session that just ended succeeded and nothing stops the codon from going on. */
function mayExtend(attempt: CodonAttempt, run: AgentRun, extensionCount: number): boolean {
  const { codon, control } = attempt;
  const { outcome } = run;
  const succeeded =
    outcome.exitCode === 0 &&
    outcome.resultReceived &&
    !outcome.failureReason &&
    !run.contextExceeded;
  return (
    succeeded &&
    control.stopReason === undefined &&
    extensionCount < codon.maxExtensions &&
    control.status === 'running'
  );
}

function idleTimeoutMs({ context, codon }: CodonAttempt): number {
  const seconds = codon.shimIdleTimeout ?? context.config.overrides?.shimIdleTimeout;
  return seconds !== undefined
    ? seconds * 1000
    : (context.settings.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
}
