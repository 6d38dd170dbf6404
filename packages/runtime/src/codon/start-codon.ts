import type { FailureReason } from '@hankweave/types';
import { withMergeConflicts } from '../parallel/resolver-prompt.js';
import { type BuiltPrompts, buildPrompts, type PromptPaths } from '../prompt/prompt-builder.js';
import { info, reportError, transition } from '../runtime/runtime-context.js';
import type { CodonAttempt } from './codon-attempt.js';
import { findContinuationSessionId } from './continuation.js';
import { announceTrackedFiles } from './tracked-files.js';

/** How `starting` ended: what the agent needs, or why the codon fails before it runs. */
export type StartResult =
  | {
      kind: 'ready';
      prompts: BuiltPrompts;
      /** Where the prompt's template variables point (also for extension prompts). */
      paths: PromptPaths;
      /** The session a `continue-previous` codon resumes. */
      resumeSessionId?: string;
    }
  | { kind: 'failed'; failureReason: FailureReason };

/**
 * The `starting` state (reference §5.5 step 3): loads the codon's sentinels, finds the session to
 * continue, announces every tracked file, and builds the prompts.
 */
export async function startCodon(attempt: CodonAttempt): Promise<StartResult> {
  const { context, codon, codonId, runId } = attempt;
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
      return {
        kind: 'failed',
        failureReason: {
          type: 'sentinel-load-failure',
          retriable: false,
          message: `Sentinels failed to load: ${fatal.map((f) => f.ref).join(', ')}`,
          sentinelRefs: fatal.map((f) => f.ref),
        },
      };
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
      return {
        kind: 'failed',
        failureReason: {
          type: 'unknown',
          retriable: false,
          message: `Codon ${codonId} requires continuation from previous codon${found.previousCodonId ? ` ${found.previousCodonId}` : ''} but no valid session found. Previous codon must complete successfully or be skipped with at least one assistant message.`,
        },
      };
    }
    resumeSessionId = found.sessionId;
    info(context, `Continuing from previous session: ${resumeSessionId}`);
  }
  attempt.hint.add(await announceTrackedFiles(context, codonId, attempt.patterns));
  const paths: PromptPaths = {
    hankDir: context.hankDir,
    agentRoot: context.layout.agentRoot,
    dataDir: context.layout.dataLink,
  };
  try {
    const prompts = withMergeConflicts(
      await buildPrompts(context.config, codon, paths),
      attempt.entry,
    );
    return { kind: 'ready', prompts, paths, ...(resumeSessionId ? { resumeSessionId } : {}) };
  } catch (error) {
    return {
      kind: 'failed',
      failureReason: { type: 'unknown', retriable: false, message: (error as Error).message },
    };
  }
}
