import { relative } from 'node:path';
import type { AgentOutcome, AgentSession } from '@hankweave/harness';
import {
  type ActiveCodonStatus,
  type CodonConfig,
  type CodonStatus,
  type CodonTransitionedData,
  type ExecutionCodonEntry,
  type ExitStatus,
  emptyTokenUsage,
  type FailureReason,
  isLoopConfig,
  type TokenUsage,
} from '@hankweave/types';
import { agentLogPath } from '../execution/layout.js';
import { entryCodon } from '../plan/planner.js';
import { buildPrompts, renderPromptText } from '../prompt/prompt-builder.js';
import {
  emit,
  info,
  type RuntimeContext,
  reportError,
  transition,
} from '../runtime/runtime-context.js';
import { consumeAgentEvents } from './agent-stream.js';
import type { CheckpointHint } from './checkpoint-hint.js';
import type { CodonControl } from './codon-control.js';
import { findContinuationSessionId } from './continuation.js';
import { prepareCodon } from './prepare-codon.js';
import { takeCheckpoint } from './take-checkpoint.js';
import { announceTrackedFiles, patternsUpTo, scanAndReport } from './tracked-files.js';

/** How a codon attempt ended. */
export interface CodonRunOutcome {
  codonId: string;
  status: 'completed' | 'failed' | 'skipped';
  failureReason?: FailureReason;
  failedDuring?: ActiveCodonStatus;
  contextExceeded: boolean;
  /** Final cost (completed) or partial cost (failed, skipped) of this attempt. */
  cost: number;
  durationMs: number;
  exitStatus: ExitStatus;
  /** The codon was interrupted by a shutdown (its checkpoint is an `exit` checkpoint). */
  interrupted: boolean;
}

interface Ending {
  status: 'completed' | 'failed' | 'skipped';
  failureReason?: FailureReason;
  exitCode: number;
  exitStatus: ExitStatus;
  outcome?: AgentOutcome;
}

const DEFAULT_IDLE_TIMEOUT_MS = 180_000;

/**
 * Runs one attempt of one codon through the eight states (reference §5.5): rig setup and its
 * checkpoint, sentinels, the agent through the harness, file scans after tool calls, the
 * checkpoint before the terminal transition. Never throws for a codon failure: the outcome says.
 */
export async function runCodon(
  context: RuntimeContext,
  input: {
    runId: string;
    entry: ExecutionCodonEntry;
    skipPreCommands: boolean;
    control: CodonControl;
    hint: CheckpointHint;
  },
): Promise<CodonRunOutcome> {
  const { runId, entry, control, hint } = input;
  const codonId = entry.codonId;
  const codon = entryCodon(entry);
  const started = Date.now();
  const startTime = context.clock().toISOString();
  const move = (to: CodonStatus, metadata: Record<string, unknown> = {}) => {
    transition(context, {
      type: 'CodonTransitioned',
      data: {
        runId,
        codonId,
        from: control.status,
        to,
        at: context.clock().toISOString(),
        metadata,
      } as CodonTransitionedData,
    });
    control.status = to;
  };
  transition(context, {
    type: 'CodonStarted',
    data: {
      runId,
      codonId,
      startTime,
      ...(entry.loopContext ? { loopContext: entry.loopContext } : {}),
    },
  });
  control.status = 'preparing';
  const patterns = patternsUpTo(context.store.state.executionPlan, codonId);
  const costs = { final: 0, tokens: emptyTokenUsage(), known: false };
  let contextExceeded = false;

  const finish = async (ending: Ending): Promise<CodonRunOutcome> => {
    const status0 = control.status as CodonStatus;
    const failedDuring = status0 as ActiveCodonStatus;
    const live = status0 === 'running' || status0 === 'completing-sentinels';
    if (live && costs.known) {
      transition(context, {
        type: 'CodonFinalCostSet',
        data: { runId, codonId, finalCost: costs.final, finalTokens: costs.tokens },
      });
    }
    if (context.sentinels.loadedCount() > 0) {
      // The sentinels finish their work and are unloaded before the terminal transition, so their
      // final counters land in `sentinels.loaded` just before it becomes `sentinels.executed`.
      const count = context.sentinels.loadedCount();
      if (status0 === 'running') move('completing-sentinels', { sentinelCount: count });
      info(context, `Completing work for ${count} sentinel(s)...`);
      await context.sentinels.unload('codon-complete');
      info(context, `Sentinel work completed (${count} sentinel(s))`);
    }
    let { status, failureReason } = ending;
    const interrupted = control.shutdownRequested && status !== 'completed';
    const checkpointType =
      status === 'completed'
        ? 'completed'
        : status === 'skipped'
          ? 'skipped'
          : interrupted
            ? 'exit'
            : 'error';
    let checkpointSha: string | undefined;
    try {
      checkpointSha = await takeCheckpoint(context, hint, {
        type: checkpointType,
        runId,
        codonId,
        codonName: codon.name,
        durationMs: Date.now() - started,
        patterns,
      });
    } catch (error) {
      reportError(
        context,
        `Checkpoint ${checkpointType}:${codonId} failed: ${(error as Error).message}`,
        { severity: 'codon', codon: codonId },
      );
      if (status === 'completed') {
        status = 'failed';
        failureReason = {
          type: 'unknown',
          retriable: false,
          message: `The completion checkpoint failed: ${(error as Error).message}`,
        };
      }
    }
    const metadata: Record<string, unknown> = {
      exitCode: ending.exitCode,
      resultMessageReceived: ending.outcome?.resultReceived ?? false,
      contextExceeded,
      ...(checkpointSha && checkpointType !== 'exit' ? { checkpointSha } : {}),
    };
    if (status === 'failed') Object.assign(metadata, { failedDuring, failureReason });
    if (status === 'skipped') Object.assign(metadata, { skippedDuring: failedDuring });
    move(status, metadata);
    const record = context.store.state.runs
      .find((run) => run.runId === runId)
      ?.codons.findLast((c) => c.codonId === codonId) as
      | { finalCost?: number; partialCost?: number }
      | undefined;
    return {
      codonId,
      status,
      ...(failureReason ? { failureReason } : {}),
      ...(status === 'failed' ? { failedDuring } : {}),
      contextExceeded,
      cost: record?.finalCost ?? record?.partialCost ?? 0,
      durationMs: Date.now() - started,
      exitStatus: ending.exitStatus,
      interrupted,
    };
  };
  const failNow = (failureReason: FailureReason, exitCode = 1) =>
    finish({
      status: 'failed',
      failureReason,
      exitCode,
      exitStatus: { type: 'error', code: exitCode },
    });

  // preparing: rig setup and its checkpoint.
  const prepared = await prepareCodon(context, {
    runId,
    codonId,
    codon,
    patterns,
    skipPreCommands: input.skipPreCommands,
    control,
    hint,
    started,
  });
  if (prepared.failure) return failNow(prepared.failure, prepared.exitCode ?? 1);
  if (control.stopRequested) return finish(stoppedEnding(control));
  move(
    'starting',
    prepared.rigSetupCheckpoint ? { checkpointSha: prepared.rigSetupCheckpoint } : {},
  );

  // starting: sentinels, the session to continue, the initial file state, the prompts.
  if (codon.sentinels?.length) {
    const loaded = await context.sentinels.loadForCodon({
      codonId,
      codonName: codon.name,
      entries: codon.sentinels,
    });
    const fatal = loaded.failed.filter((failure) => failure.fatal);
    if (fatal.length > 0) {
      reportError(
        context,
        `Sentinels failed to load for codon ${codonId}: ${fatal.map((f) => `${f.ref}: ${f.error}`).join('; ')}`,
        { severity: 'codon', codon: codonId, code: 'SENTINEL_LOAD_FAILURE' },
      );
      return failNow({
        type: 'sentinel-load-failure',
        retriable: false,
        message: `Sentinels failed to load: ${fatal.map((f) => f.ref).join(', ')}`,
        sentinelRefs: fatal.map((f) => f.ref),
      });
    }
    if (loaded.states.length > 0) {
      transition(context, {
        type: 'SentinelStatesUpdated',
        data: { runId, codonId, sentinelStates: loaded.states, totalCost: 0 },
      });
    } else {
      context.log.warn(
        `Codon ${codonId} declares ${codon.sentinels.length} sentinel(s), but none were loaded`,
      );
    }
  }
  let resumeSessionId: string | undefined;
  if (codon.continuationMode === 'continue-previous') {
    const found = findContinuationSessionId(
      context.store.state,
      context.store.state.executionPlan,
      codonId,
    );
    if (!found.sessionId) {
      return failNow({
        type: 'unknown',
        retriable: false,
        message: `Codon ${codonId} requires continuation from previous codon${found.previousCodonId ? ` ${found.previousCodonId}` : ''} but no valid session found. Previous codon must complete successfully or be skipped with at least one assistant message.`,
      });
    }
    resumeSessionId = found.sessionId;
    info(context, `Continuing from previous session: ${resumeSessionId}`);
  }
  hint.add(announceTrackedFiles(context, codonId, patterns));
  const paths = {
    hankDir: context.hankDir,
    agentRoot: context.layout.agentRoot,
    dataDir: context.layout.dataLink,
  };
  let prompts: Awaited<ReturnType<typeof buildPrompts>>;
  try {
    prompts = await buildPrompts(context.config, codon, paths);
  } catch (error) {
    return failNow({ type: 'unknown', retriable: false, message: (error as Error).message });
  }

  // initializing → running: the agent, and its extensions (exhaustWithPrompt).
  const logPath = agentLogPath(context.layout, runId, codonId);
  let outcome: AgentOutcome | undefined;
  let extensionCount = 0;
  let prompt = prompts.prompt;
  for (;;) {
    let session: AgentSession;
    try {
      session = await context.harness.start({
        codonId,
        runId,
        model: codon.model,
        prompt,
        ...(prompts.appendSystemPrompt ? { appendSystemPrompt: prompts.appendSystemPrompt } : {}),
        cwd: context.layout.agentRoot,
        ...(codon.env ? { env: codon.env } : {}),
        ...(resumeSessionId ? { resumeSessionId } : {}),
        logPath,
        idleTimeoutMs: idleTimeoutMs(context, codon),
        autoCompact: codon.autoCompact,
        signal: control.abort.signal,
      });
    } catch (error) {
      if (outcome) break;
      return failNow({
        type: 'unknown',
        retriable: false,
        message: `The agent could not start: ${(error as Error).message}`,
      });
    }
    control.session = session;
    if ((control.status as CodonStatus) === 'starting') {
      move('initializing', {
        claudePid: session.pid,
        claudeLogPath: relative(context.layout.hankweaveDir, logPath),
        ...(resumeSessionId ? { previousSessionId: resumeSessionId } : {}),
      });
    }
    if (control.stopRequested) void session.kill('stop requested');
    const stream = await consumeAgentEvents(context, {
      runId,
      codonId,
      codon,
      session,
      control,
      hint,
      patterns,
      startTime,
      move,
      ...(resumeSessionId ? { previousSessionId: resumeSessionId } : {}),
      ...(prompts.promptMetadata ? { promptMetadata: prompts.promptMetadata } : {}),
    });
    outcome = await session.outcome;
    contextExceeded ||= outcome.contextExceeded || stream.contextExceeded;
    addCosts(costs, outcome);
    const succeeded =
      outcome.exitCode === 0 &&
      outcome.resultReceived &&
      !outcome.failureReason &&
      !contextExceeded;
    if (
      !succeeded ||
      control.stopRequested ||
      !codon.exhaustWithPrompt ||
      extensionCount >= codon.maxExtensions ||
      !outcome.sessionId ||
      (control.status as CodonStatus) !== 'running'
    )
      break;
    extensionCount++;
    resumeSessionId = outcome.sessionId;
    prompt = renderPromptText(codon.exhaustWithPrompt, paths);
    transition(context, {
      type: 'ExtensionCountUpdated',
      data: { runId, codonId, extensionCount },
    });
    emit(context, 'codon.extended', {
      codonId,
      codonName: codon.name,
      extensionNumber: extensionCount,
      exhaustWithPrompt: codon.exhaustWithPrompt,
      cumulativeTokens: costs.tokens,
      cumulativeCost: costs.final,
    });
  }
  // Changes made by shell commands after the last tool result, or by background processes.
  hint.add(scanAndReport(context, codonId, patterns, { kind: 'scan' }));
  return finish(
    endingOf(context, codon, codonId, control, outcome as AgentOutcome, contextExceeded),
  );
}

function idleTimeoutMs(context: RuntimeContext, codon: CodonConfig): number {
  const seconds = codon.shimIdleTimeout ?? context.config.overrides?.shimIdleTimeout;
  return seconds !== undefined
    ? seconds * 1000
    : (context.settings.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
}

function addCosts(
  costs: { final: number; tokens: TokenUsage; known: boolean },
  outcome: AgentOutcome,
): void {
  costs.known = true;
  costs.final += outcome.finalCost;
  costs.tokens = {
    inputTokens: costs.tokens.inputTokens + outcome.finalTokens.inputTokens,
    outputTokens: costs.tokens.outputTokens + outcome.finalTokens.outputTokens,
    cacheCreationTokens: costs.tokens.cacheCreationTokens + outcome.finalTokens.cacheCreationTokens,
    cacheReadTokens: costs.tokens.cacheReadTokens + outcome.finalTokens.cacheReadTokens,
  };
}

function stoppedEnding(control: CodonControl): Ending {
  const killed = (message: string): Ending => ({
    status: 'failed',
    exitCode: -1,
    exitStatus: { type: 'killed', signal: 'SIGTERM' },
    failureReason: { type: 'unknown', retriable: true, message },
  });
  if (control.forceStopReason !== undefined)
    return killed(`Force stopped: ${control.forceStopReason}`);
  if (control.shutdownRequested)
    return killed('Interrupted: the server shut down while the codon was active');
  return { status: 'skipped', exitCode: -1, exitStatus: { type: 'killed', signal: 'SIGTERM' } };
}

/** The final status by priority (reference §5.5 step 8). */
function endingOf(
  context: RuntimeContext,
  codon: CodonConfig,
  codonId: string,
  control: CodonControl,
  outcome: AgentOutcome,
  contextExceeded: boolean,
): Ending {
  const exitCode = outcome.exitCode ?? -1;
  const exitStatus: ExitStatus = outcome.signal
    ? { type: 'killed', signal: outcome.signal }
    : exitCode === 0
      ? { type: 'success' }
      : { type: 'error', code: exitCode };
  if (control.stopRequested) return { ...stoppedEnding(control), outcome };
  if (exitCode === 0 && outcome.resultReceived && !outcome.failureReason && !contextExceeded) {
    return { status: 'completed', exitCode: 0, exitStatus, outcome };
  }
  if (contextExceeded && inContextLoop(context, codonId)) {
    info(context, `Codon ${codonId} exceeded its context window; its loop ends here`);
    return { status: 'completed', exitCode: 0, exitStatus, outcome };
  }
  const failureReason: FailureReason =
    outcome.failureReason ??
    (contextExceeded
      ? {
          type: 'api-error',
          retriable: false,
          message: `Codon ${codon.id} exceeded the model's context window`,
        }
      : {
          type: 'api-error',
          retriable: outcome.sessionId !== undefined,
          message: outcome.resultReceived
            ? `Codon process exited without success (exit code ${exitCode})`
            : `Codon process exited without a result message (exit code ${exitCode})`,
        });
  return {
    status: 'failed',
    exitCode: exitCode === 0 ? 1 : exitCode,
    exitStatus,
    failureReason,
    outcome,
  };
}

function inContextLoop(context: RuntimeContext, codonId: string): boolean {
  const entry = context.store.state.executionPlan.find(
    (candidate) => candidate.codonId === codonId,
  );
  const loopId = entry?.loopContext?.loopId;
  return context.config.hank.some(
    (item) =>
      isLoopConfig(item) && item.id === loopId && item.terminateOn.type === 'contextExceeded',
  );
}
