import {
  CODON_TRANSITIONS,
  type CodonExecution,
  type CodonStatus,
  type CodonTransitionMetadata,
  emptyTokenUsage,
  REQUIRED_TRANSITION_METADATA,
} from '@hankweave/types';
import { stateError } from '../errors.js';

type Metadata = CodonTransitionMetadata;
type Loose = Record<string, unknown>;

// Fields of the active states that a terminal record does not carry, per seed 000's examples.
// A record read from another runtime keeps every other unknown field.
const DROPPED_ON: Readonly<Record<'completed' | 'failed' | 'skipped', readonly string[]>> = {
  completed: ['currentCost', 'currentTokens', 'claudePid', 'assistantMessageCount'],
  failed: ['currentCost', 'currentTokens', 'assistantMessageCount'],
  skipped: ['currentCost', 'currentTokens'],
};

const CHECKPOINT_FIELD_ON_TERMINAL = {
  completed: 'completionCheckpoint',
  failed: 'errorCheckpoint',
  skipped: 'skipCheckpoint',
} as const;

/** Throws unless `from → to` is allowed for this record and the metadata `to` needs is there. */
export const checkCodonTransition = (
  record: CodonExecution,
  from: CodonStatus,
  to: CodonStatus,
  metadata: Metadata,
  where: { runId: string; codonId: string },
): void => {
  if (record.status !== from) {
    throw stateError(
      'STATE_INVALID_TRANSITION',
      `Codon '${where.codonId}' in run '${where.runId}' is '${record.status}', not '${from}'.`,
      { ...where, status: record.status, from, to },
    );
  }
  if (!CODON_TRANSITIONS[from].includes(to)) {
    const allowed = CODON_TRANSITIONS[from];
    throw stateError(
      'STATE_INVALID_TRANSITION',
      `Codon '${where.codonId}' cannot go from '${from}' to '${to}'` +
        (allowed.length === 0 ? ` ('${from}' is terminal).` : ` (allowed: ${allowed.join(', ')}).`),
      { ...where, from, to, allowed: [...allowed] },
    );
  }
  // Widened to every status: the statuses without requirements look up to nothing.
  const required: readonly string[] =
    (REQUIRED_TRANSITION_METADATA as Partial<Record<CodonStatus, readonly string[]>>)[to] ?? [];
  const missing = required.filter((key) => (metadata as Loose)[key] === undefined);
  if (missing.length > 0) {
    throw stateError(
      'STATE_MISSING_METADATA',
      `Moving codon '${where.codonId}' to '${to}' needs metadata: ${missing.join(', ')}.`,
      { ...where, to, missing },
    );
  }
};

/** `sentinels.loaded` becomes `sentinels.executed`: the statistics are final from now on. */
const finalizeSentinels = (sentinels: unknown): unknown => {
  if (typeof sentinels !== 'object' || sentinels === null || !('loaded' in sentinels)) {
    return sentinels;
  }
  const { loaded, ...rest } = sentinels as Loose;
  return { executed: loaded, ...rest };
};

const setIfDefined = (target: Loose, key: string, value: unknown): void => {
  if (value !== undefined) target[key] = value;
};

/**
 * The record after `record.status → to` at time `at`. Assumes {@link checkCodonTransition} passed.
 * Costs: `completed` copies the running totals into `final*`; `failed` / `skipped` keep them as
 * `partial*` (absent when the codon never reached `running`).
 */
export const transitionRecord = (
  record: CodonExecution,
  to: CodonStatus,
  at: string,
  metadata: Metadata,
): CodonExecution => {
  const next: Loose = { ...record, status: to };
  const m = metadata as Loose & Metadata;
  switch (to) {
    case 'starting':
      setIfDefined(next, 'rigSetupCheckpoint', m.checkpointSha);
      next.sentinels ??= { loaded: [], totalCost: 0 };
      break;
    case 'initializing':
      next.claudePid = m.claudePid;
      next.claudeLogPath = m.claudeLogPath;
      setIfDefined(next, 'previousSessionId', m.previousSessionId);
      next.sentinels ??= { loaded: [], totalCost: 0 };
      break;
    case 'running':
      next.claudeSessionId = m.claudeSessionId;
      next.currentCost ??= 0;
      next.currentTokens ??= emptyTokenUsage();
      next.assistantMessageCount ??= 0;
      setIfDefined(next, 'extensionCount', m.extensionCount);
      break;
    case 'completing-sentinels':
      break;
    case 'completed':
    case 'failed':
    case 'skipped': {
      const live = record as Loose;
      for (const key of DROPPED_ON[to]) delete next[key];
      next.endTime = at;
      if (to === 'completed') {
        next.exitCode = m.exitCode ?? 0;
        next.finalCost = live.currentCost ?? 0;
        next.finalTokens = live.currentTokens ?? emptyTokenUsage();
        next.resultMessageReceived = m.resultMessageReceived ?? false;
      } else {
        if (live.currentCost !== undefined) next.partialCost = live.currentCost;
        if (live.currentTokens !== undefined) next.partialTokens = live.currentTokens;
      }
      if (to === 'failed') {
        next.failedDuring = m.failedDuring;
        next.exitCode = m.exitCode;
        next.failureReason = m.failureReason;
      }
      if (to === 'skipped') {
        next.skippedDuring = m.skippedDuring;
        setIfDefined(next, 'skippedBy', m.skippedBy);
        setIfDefined(next, 'skipReason', m.skipReason);
        setIfDefined(next, 'conditionOf', m.conditionOf);
      }
      setIfDefined(next, CHECKPOINT_FIELD_ON_TERMINAL[to], m.checkpointSha);
      setIfDefined(next, 'extensionCount', m.extensionCount);
      setIfDefined(next, 'budgetExceeded', m.budgetExceeded);
      // Only when true: records of codons that stayed within their context look like the seed's.
      if (m.contextExceeded === true) next.contextExceeded = true;
      if (next.sentinels !== undefined) next.sentinels = finalizeSentinels(next.sentinels);
      break;
    }
  }
  return next as CodonExecution;
};

/** True for the statuses that carry live cost counters. */
export const hasLiveCosts = (status: CodonStatus): boolean =>
  status === 'running' || status === 'completing-sentinels';
