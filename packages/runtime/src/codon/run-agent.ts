import { relative } from 'node:path';
import type { AgentOutcome, AgentSession } from '@hankweave/harness';
import { addTokenUsage, type FailureReason, type TokenUsage } from '@hankweave/types';
import { rememberLimits } from '../budget/budget-summary.js';
import { BudgetWatchdog, describeExceeded, type SharedSpend } from '../budget/budget-watchdog.js';
import { codonLimits, runtimeCeiling, spentRows } from '../budget/codon-budget.js';
import {
  checkDataSource,
  dataSourceFailure,
  openCodonDataGuard,
} from '../data-guard/codon-data-guard.js';
import { agentLogPath } from '../execution/layout.js';
import { renderPromptText } from '../prompt/prompt-builder.js';
import { AGENT_RUN_ENV } from '../runtime/reap-orphan-agents.js';
import { emit, info, transition } from '../runtime/runtime-context.js';
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
  const logPath = agentLogPath(attempt.context.layout, attempt.runId, attempt.codonId);
  // The data source's baseline, unless the rig took it already.
  await openCodonDataGuard(attempt);
  const watchdog = startWatchdog(attempt);
  try {
    return await runSessions(attempt, start, logPath, watchdog);
  } finally {
    watchdog.dispose();
  }
}

/**
 * The budget watchdog of an attempt (reference §4.8), over the first session and its extensions:
 * the first limit crossed stops the agent, and the codon ends as `onExceeded` says.
 */
function startWatchdog(attempt: CodonAttempt): BudgetWatchdog {
  const { context, codonId, control } = attempt;
  const limits = codonLimits(context, attempt.entry);
  rememberLimits(context, codonId, limits);
  const pool = branchPool(attempt);
  return new BudgetWatchdog(
    limits,
    (exceeded) => {
      info(
        context,
        `Codon ${codonId}: budget limit reached (${describeExceeded(exceeded)}); stopping the agent`,
      );
      void control.stop({ kind: 'budget', exceeded, onExceeded: limits.onExceeded });
    },
    attempt.startedMs,
    Date.now,
    pool,
  );
}

/**
 * A parallel branch's codon shares the hank's dollars with the branches running beside it: its
 * watchdog counts their live spend too, so a spent budget stops every branch, not only the one
 * that crossed it (each would otherwise get the whole remainder). Undefined outside branches or
 * without a dollar ceiling.
 */
function branchPool(attempt: CodonAttempt): { spend: SharedSpend; limit: number } | undefined {
  const { context, entry } = attempt;
  const ceiling = runtimeCeiling(context).maxDollars;
  if (entry.parallelContext?.role !== 'branch' || ceiling === undefined) return undefined;
  const spent = spentRows(context.store.state, Date.now()).reduce(
    (sum, row) => sum + row.dollars,
    0,
  );
  return { spend: context.liveSpend, limit: Math.max(0, ceiling - spent) };
}

async function runSessions(
  attempt: CodonAttempt,
  start: Extract<StartResult, { kind: 'ready' }>,
  logPath: string,
  watchdog: BudgetWatchdog,
): Promise<RunAgentResult> {
  const { context, codon, codonId, runId, control } = attempt;
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
        // The run's mark lets a later runtime find this agent if ours dies without stopping it.
        env: { ...codon.env, [AGENT_RUN_ENV]: runId },
        ...(resumeSessionId ? { resumeSessionId } : {}),
        logPath,
        idleTimeoutMs: idleTimeoutMs(attempt),
        autoCompact: codon.autoCompact,
        signal: control.abort.signal,
        ...(context.sandbox && { sandbox: context.sandbox }),
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
    session = watchdog.watch(session);
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
    const ended = await session.outcome;
    // A change to the data source fails the codon whatever the agent said (a background process
    // may have written after the last tool result).
    await checkDataSource(attempt, 'the agent ran (checked when its session ended)');
    const guarded = dataSourceFailure(attempt);
    const outcome = guarded ? { ...ended, failureReason: guarded } : ended;
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

// Reference §1.10: the codon's own value, then the runtime setting (from env or the CLI, which
// outrank hank overrides), then the hank's `overrides.shimIdleTimeout`, then the default.
function idleTimeoutMs({ context, codon }: CodonAttempt): number {
  if (codon.shimIdleTimeout !== undefined) return codon.shimIdleTimeout * 1000;
  if (context.settings.idleTimeoutMs !== undefined) return context.settings.idleTimeoutMs;
  const hankSeconds = context.config.overrides?.shimIdleTimeout;
  return hankSeconds !== undefined ? hankSeconds * 1000 : DEFAULT_IDLE_TIMEOUT_MS;
}
