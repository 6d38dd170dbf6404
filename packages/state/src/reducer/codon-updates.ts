import {
  type ActiveCodonStatus,
  addTokenUsage,
  type CheckpointType,
  type CodonExecution,
  type CodonStatus,
  type StateTransitionOf,
  type TokenUsage,
} from '@hankweave/types';
import { stateError } from '../errors.js';
import { hasLiveCosts } from './codon-record.js';

type Loose = Record<string, unknown>;

const requireStatus = (
  record: CodonExecution,
  allowed: readonly CodonStatus[],
  what: string,
  runId: string,
): void => {
  if (!allowed.includes(record.status)) {
    throw stateError(
      'STATE_INVALID_TRANSITION',
      `${what} needs codon '${record.codonId}' in run '${runId}' to be ${allowed.join(' or ')}; ` +
        `it is '${record.status}'.`,
      { runId, codonId: record.codonId, status: record.status, allowed: [...allowed] },
    );
  }
};

const LIVE: readonly CodonStatus[] = ['running', 'completing-sentinels'];
const SENTINEL_HOLDERS: readonly ActiveCodonStatus[] = [
  'starting',
  'initializing',
  'running',
  'completing-sentinels',
];

/** `CostsUpdated`: replaces the running totals of a live codon. */
export const costsUpdated = (
  record: CodonExecution,
  data: StateTransitionOf<'CostsUpdated'>['data'],
): CodonExecution => {
  requireStatus(record, LIVE, 'CostsUpdated', data.runId);
  return { ...record, currentCost: data.currentCost, currentTokens: data.currentTokens };
};

/** `CostsIncremented`: adds a delta to the running totals of a live codon. */
export const costsIncremented = (
  record: CodonExecution,
  data: StateTransitionOf<'CostsIncremented'>['data'],
): CodonExecution => {
  requireStatus(record, LIVE, 'CostsIncremented', data.runId);
  const live = record as CodonExecution & { currentCost: number; currentTokens: TokenUsage };
  return {
    ...live,
    currentCost: live.currentCost + data.costDelta,
    currentTokens: addTokenUsage(live.currentTokens, data.tokensDelta),
  };
};

/**
 * `CodonFinalCostSet`: the authoritative cost (the agent's result line) overwrites whatever the
 * record holds: the running totals of a live codon, `final*` of a completed one, `partial*` of a
 * failed or skipped one.
 */
export const finalCostSet = (
  record: CodonExecution,
  data: StateTransitionOf<'CodonFinalCostSet'>['data'],
): CodonExecution => {
  const { finalCost: cost, finalTokens: tokens } = data;
  if (hasLiveCosts(record.status)) return { ...record, currentCost: cost, currentTokens: tokens };
  if (record.status === 'completed') return { ...record, finalCost: cost, finalTokens: tokens };
  if (record.status === 'failed' || record.status === 'skipped') {
    return { ...record, partialCost: cost, partialTokens: tokens };
  }
  requireStatus(
    record,
    [...LIVE, 'completed', 'failed', 'skipped'],
    'CodonFinalCostSet',
    data.runId,
  );
  return record;
};

/** `AssistantMessageCountUpdated` on a live codon. */
export const messageCountUpdated = (
  record: CodonExecution,
  data: StateTransitionOf<'AssistantMessageCountUpdated'>['data'],
): CodonExecution => {
  requireStatus(record, LIVE, 'AssistantMessageCountUpdated', data.runId);
  return { ...record, assistantMessageCount: data.newCount };
};

/** `ExtensionCountUpdated` on a live codon. */
export const extensionCountUpdated = (
  record: CodonExecution,
  data: StateTransitionOf<'ExtensionCountUpdated'>['data'],
): CodonExecution => {
  requireStatus(record, LIVE, 'ExtensionCountUpdated', data.runId);
  return { ...record, extensionCount: data.extensionCount };
};

// The seed has no field for an `exit` checkpoint (taken at shutdown); the original runtime
// recorded those as `skipped`, so they land in skipCheckpoint too. A `merge` checkpoint (issue 36)
// is what the codon that joins a parallel block completes with: its completion checkpoint.
const CHECKPOINT_FIELDS: Readonly<Record<CheckpointType, string>> = {
  'rig-setup': 'rigSetupCheckpoint',
  completed: 'completionCheckpoint',
  error: 'errorCheckpoint',
  skipped: 'skipCheckpoint',
  exit: 'skipCheckpoint',
  merge: 'completionCheckpoint',
};

/**
 * `CheckpointCreated`: records the SHA on the latest record, in any status (checkpoints are taken
 * just before the terminal transition, and an error checkpoint may follow it).
 */
export const checkpointCreated = (
  record: CodonExecution,
  data: StateTransitionOf<'CheckpointCreated'>['data'],
): CodonExecution => ({ ...record, [CHECKPOINT_FIELDS[data.checkpointType]]: data.sha });

/** `SentinelStatesUpdated`: replaces `sentinels.loaded` of a codon whose sentinels are loaded. */
export const sentinelStatesUpdated = (
  record: CodonExecution,
  data: StateTransitionOf<'SentinelStatesUpdated'>['data'],
): CodonExecution => {
  requireStatus(record, SENTINEL_HOLDERS, 'SentinelStatesUpdated', data.runId);
  const previous = (record as Loose).sentinels as Loose | undefined;
  return {
    ...record,
    sentinels: { ...previous, loaded: data.sentinelStates, totalCost: data.totalCost },
  } as CodonExecution;
};
