import { z } from 'zod';
import {
  budgetExceededSchema,
  checkpointTypeSchema,
  failureReasonSchema,
  loopContextSchema,
  timestampSchema,
  tokenUsageSchema,
} from '../common.js';
import { activeCodonStatusSchema, type CodonStatus, codonStatusSchema } from './codon-execution.js';
import { sentinelStateSchema } from './sentinel-state.js';
import { executionCodonEntrySchema, startingConditionsSchema } from './state.js';

/**
 * Every change of state.json is one of these transitions (reference §3.3 `state.transition`,
 * plus `ExecutionPlanUpdated` for lazy loop expansion). Times are carried in the transition, so
 * the reducer is a pure function and a journal of transitions replays to the same state.
 */
const codonRef = { runId: z.string(), codonId: z.string() };

const codonTransitionMetadataSchema = z.looseObject({
  claudePid: z.number().int().optional(),
  claudeLogPath: z.string().optional(),
  previousSessionId: z.string().optional(),
  claudeSessionId: z.string().optional(),
  exitCode: z.number().int().optional(),
  resultMessageReceived: z.boolean().optional(),
  checkpointSha: z.string().optional(),
  contextExceeded: z.boolean().optional(),
  extensionCount: z.number().int().optional(),
  // The original runtime writes `null` for "not exceeded" (compatibility.md).
  budgetExceeded: budgetExceededSchema.nullish(),
  failedDuring: activeCodonStatusSchema.optional(),
  skippedDuring: activeCodonStatusSchema.optional(),
  /** A skip the runtime decided because a `when` condition did not hold. Ours. */
  skippedBy: z.literal('condition').optional(),
  skipReason: z.string().optional(),
  conditionOf: z.enum(['codon', 'loop', 'block']).optional(),
  failureReason: failureReasonSchema.optional(),
  sentinelCount: z.number().int().optional(),
  sentinelIds: z.array(z.string()).optional(),
});

export const stateTransitionSchema = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('RunStarted'),
    data: z.looseObject({
      runId: z.string().min(1),
      runFolder: z.string(),
      gitBranch: z.string(),
      startingConditions: startingConditionsSchema,
      serverPid: z.number().int(),
      startTime: timestampSchema,
    }),
  }),
  z.looseObject({
    type: z.literal('RunCompleted'),
    data: z.looseObject({ runId: z.string(), endTime: timestampSchema }),
  }),
  z.looseObject({
    type: z.literal('RunFailed'),
    data: z.looseObject({
      runId: z.string(),
      endTime: timestampSchema,
      reason: z.string().optional(),
    }),
  }),
  z.looseObject({
    type: z.literal('RunCrashed'),
    data: z.looseObject({
      runId: z.string(),
      detectedAt: timestampSchema,
      lastCodonStatus: z.string().optional(),
    }),
  }),
  z.looseObject({
    type: z.literal('CodonStarted'),
    data: z.looseObject({
      ...codonRef,
      startTime: timestampSchema,
      loopContext: loopContextSchema.optional(),
      /** The attempt's place in its retry series when it is not the first try (2, 3 ...). */
      retryAttempt: z.number().int().min(2).optional(),
    }),
  }),
  z.looseObject({
    type: z.literal('CodonTransitioned'),
    data: z.looseObject({
      ...codonRef,
      from: codonStatusSchema,
      to: codonStatusSchema,
      at: timestampSchema,
      metadata: codonTransitionMetadataSchema.default({}),
    }),
  }),
  z.looseObject({
    type: z.literal('CostsUpdated'),
    data: z.looseObject({
      ...codonRef,
      currentCost: z.number().nonnegative(),
      currentTokens: tokenUsageSchema,
    }),
  }),
  z.looseObject({
    type: z.literal('CostsIncremented'),
    data: z.looseObject({
      ...codonRef,
      costDelta: z.number().nonnegative(),
      tokensDelta: tokenUsageSchema,
    }),
  }),
  z.looseObject({
    type: z.literal('AssistantMessageCountUpdated'),
    data: z.looseObject({ ...codonRef, newCount: z.number().int().nonnegative() }),
  }),
  z.looseObject({
    type: z.literal('ExtensionCountUpdated'),
    data: z.looseObject({ ...codonRef, extensionCount: z.number().int().nonnegative() }),
  }),
  z.looseObject({
    type: z.literal('CheckpointCreated'),
    data: z.looseObject({
      ...codonRef,
      checkpointType: checkpointTypeSchema,
      sha: z.string().min(1),
      branch: z.string(),
    }),
  }),
  z.looseObject({
    type: z.literal('InitialCheckpointSet'),
    data: z.looseObject({ sha: z.string().min(1) }),
  }),
  z.looseObject({
    type: z.literal('CodonFinalCostSet'),
    data: z.looseObject({
      ...codonRef,
      finalCost: z.number().nonnegative(),
      finalTokens: tokenUsageSchema,
    }),
  }),
  z.looseObject({
    type: z.literal('SentinelStatesUpdated'),
    data: z.looseObject({
      ...codonRef,
      sentinelStates: z.array(sentinelStateSchema),
      totalCost: z.number().nonnegative(),
    }),
  }),
  z.looseObject({
    type: z.literal('ExecutionPlanUpdated'),
    data: z.looseObject({ executionPlan: z.array(executionCodonEntrySchema) }),
  }),
]);
/** Metadata a `CodonTransitioned` may carry (reference §5.5); which fields are required depends on `to`. */
export type CodonTransitionMetadata = z.infer<typeof codonTransitionMetadataSchema>;

/**
 * The metadata each target status needs (reference §5.5 `validateTransitionMetadata`). The state
 * reducer refuses a transition without it (`STATE_MISSING_METADATA`), and
 * {@link CodonTransitionedData} makes the compiler refuse it first.
 */
export const REQUIRED_TRANSITION_METADATA = {
  initializing: ['claudePid', 'claudeLogPath'],
  running: ['claudeSessionId'],
  failed: ['failedDuring', 'exitCode', 'failureReason'],
  skipped: ['skippedDuring'],
} as const satisfies Partial<Record<CodonStatus, readonly (keyof CodonTransitionMetadata)[]>>;

type RequiredMetadataOf<To extends CodonStatus> =
  To extends keyof typeof REQUIRED_TRANSITION_METADATA
    ? (typeof REQUIRED_TRANSITION_METADATA)[To][number]
    : never;

/**
 * The data of a `CodonTransitioned`, discriminated on its target status: `to: 'failed'` needs
 * `failedDuring`, `exitCode` and `failureReason` in its metadata, and so on.
 */
export type CodonTransitionedData<To extends CodonStatus = CodonStatus> = To extends CodonStatus
  ? {
      runId: string;
      codonId: string;
      from: CodonStatus;
      to: To;
      at: string;
      metadata: CodonTransitionMetadata & {
        [Key in RequiredMetadataOf<To>]-?: NonNullable<CodonTransitionMetadata[Key]>;
      };
    }
  : never;

type ParsedTransition = z.infer<typeof stateTransitionSchema>;

/**
 * One change of state.json. `CodonTransitioned` is narrowed by its target status (see
 * {@link CodonTransitionedData}); the others are as their schema says.
 */
export type StateTransition =
  | Exclude<ParsedTransition, { type: 'CodonTransitioned' }>
  | { type: 'CodonTransitioned'; data: CodonTransitionedData };
export type StateTransitionType = StateTransition['type'];
/** The transition of one type: `StateTransitionOf<'RunStarted'>`. */
export type StateTransitionOf<T extends StateTransitionType> = Extract<
  StateTransition,
  { type: T }
>;

export const STATE_TRANSITION_TYPES = stateTransitionSchema.options.map(
  (option) => option.shape.type.value,
) as StateTransitionType[];
