import { z } from 'zod';
import {
  budgetExceededSchema,
  failureReasonSchema,
  loopContextSchema,
  timestampSchema,
  tokenUsageSchema,
} from '../common.js';
import { executedSentinelsSchema, loadedSentinelsSchema } from './sentinel-state.js';

export const CODON_STATUSES = [
  'preparing',
  'starting',
  'initializing',
  'running',
  'completing-sentinels',
  'completed',
  'failed',
  'skipped',
] as const;
export const codonStatusSchema = z.enum(CODON_STATUSES);
export type CodonStatus = z.infer<typeof codonStatusSchema>;

export const TERMINAL_CODON_STATUSES = ['completed', 'failed', 'skipped'] as const;
export type TerminalCodonStatus = (typeof TERMINAL_CODON_STATUSES)[number];
export const ACTIVE_CODON_STATUSES = [
  'preparing',
  'starting',
  'initializing',
  'running',
  'completing-sentinels',
] as const;
export type ActiveCodonStatus = (typeof ACTIVE_CODON_STATUSES)[number];
export const activeCodonStatusSchema = z.enum(ACTIVE_CODON_STATUSES);

/** True for `completed`, `failed` and `skipped`. */
export const isTerminalCodonStatus = (status: string): status is TerminalCodonStatus =>
  (TERMINAL_CODON_STATUSES as readonly string[]).includes(status);

/**
 * Allowed codon transitions (reference §5.5). Terminal states have none.
 */
export const CODON_TRANSITIONS: Readonly<Record<CodonStatus, readonly CodonStatus[]>> = {
  preparing: ['starting', 'failed', 'skipped'],
  // `completed` straight from `starting`: a parallel block's merge record, which runs no agent.
  starting: ['initializing', 'completed', 'failed', 'skipped'],
  initializing: ['running', 'failed', 'skipped'],
  running: ['completing-sentinels', 'completed', 'failed', 'skipped'],
  'completing-sentinels': ['completed', 'failed', 'skipped'],
  completed: [],
  failed: [],
  skipped: [],
};

// Every record is loose: files written by the original runtime carry more fields than the seed
// lists (reference/compatibility.md), and they must survive a read-modify-write.
const base = {
  codonId: z.string().min(1),
  startTime: timestampSchema,
  loopContext: loopContextSchema.optional(),
  rigSetupCheckpoint: z.string().optional(),
  /**
   * The attempt's place in its retry series (`onFailure: "retry"`), when it is not the first
   * try: durable, so a crash between attempts grants no extra retry. Ours only.
   */
  retryAttempt: z.number().int().min(2).optional(),
};

export const preparingCodonSchema = z.looseObject({ ...base, status: z.literal('preparing') });

export const startingCodonSchema = z.looseObject({
  ...base,
  status: z.literal('starting'),
  sentinels: loadedSentinelsSchema,
});

const processFields = {
  claudePid: z.number().int(),
  claudeLogPath: z.string(),
  previousSessionId: z.string().optional(),
  sentinels: loadedSentinelsSchema,
};

export const initializingCodonSchema = z.looseObject({
  ...base,
  ...processFields,
  status: z.literal('initializing'),
});

const liveFields = {
  ...processFields,
  claudeSessionId: z.string(),
  currentCost: z.number().nonnegative(),
  currentTokens: tokenUsageSchema,
  assistantMessageCount: z.number().int().nonnegative(),
  extensionCount: z.number().int().nonnegative().optional(),
};

export const runningCodonSchema = z.looseObject({
  ...base,
  ...liveFields,
  status: z.literal('running'),
});

/** Structurally the same as running: the agent is done, sentinels are finishing. */
export const completingSentinelsCodonSchema = z.looseObject({
  ...base,
  ...liveFields,
  status: z.literal('completing-sentinels'),
});

const terminalFields = {
  endTime: timestampSchema,
  claudePid: z.number().int().optional(),
  claudeSessionId: z.string().optional(),
  claudeLogPath: z.string().optional(),
  previousSessionId: z.string().optional(),
  extensionCount: z.number().int().nonnegative().optional(),
  /**
   * True when the agent exceeded its context window: in a `contextExceeded` loop this ended the
   * loop (the decision must survive a crash). Absent otherwise, and in the original's files.
   */
  contextExceeded: z.boolean().optional(),
  // Absent when the codon had no sentinels configured (seen in real files).
  sentinels: executedSentinelsSchema.optional(),
};

export const completedCodonSchema = z.looseObject({
  ...base,
  ...terminalFields,
  status: z.literal('completed'),
  exitCode: z.number().int(),
  finalCost: z.number().nonnegative(),
  finalTokens: tokenUsageSchema,
  resultMessageReceived: z.boolean(),
  // Optional only for files from runtimes that ran with checkpointing disabled.
  completionCheckpoint: z.string().optional(),
  // The original runtime writes `null` for "not exceeded" (compatibility.md).
  budgetExceeded: budgetExceededSchema.nullish(),
});

export const failedCodonSchema = z.looseObject({
  ...base,
  ...terminalFields,
  status: z.literal('failed'),
  failedDuring: activeCodonStatusSchema,
  exitCode: z.number().int(),
  failureReason: failureReasonSchema,
  partialCost: z.number().nonnegative().optional(),
  partialTokens: tokenUsageSchema.optional(),
  errorCheckpoint: z.string().optional(),
  // The original runtime writes `null` for "not exceeded" (compatibility.md).
  budgetExceeded: budgetExceededSchema.nullish(),
});

export const skippedCodonSchema = z.looseObject({
  ...base,
  ...terminalFields,
  status: z.literal('skipped'),
  skippedDuring: activeCodonStatusSchema,
  partialCost: z.number().nonnegative().optional(),
  partialTokens: tokenUsageSchema.optional(),
  assistantMessageCount: z.number().int().nonnegative().optional(),
  skipCheckpoint: z.string().optional(),
  /**
   * Set when the runtime skipped the codon because a `when` condition did not hold (absent: a
   * person or client skipped it): whose condition (the codon's, or its loop's) and why. Ours.
   */
  skippedBy: z.literal('condition').optional(),
  skipReason: z.string().optional(),
  conditionOf: z.enum(['codon', 'loop', 'block']).optional(),
});

/** One codon execution record, discriminated on `status` over the 8 states (seed 000). */
export const codonExecutionSchema = z.discriminatedUnion('status', [
  preparingCodonSchema,
  startingCodonSchema,
  initializingCodonSchema,
  runningCodonSchema,
  completingSentinelsCodonSchema,
  completedCodonSchema,
  failedCodonSchema,
  skippedCodonSchema,
]);

export type PreparingCodon = z.infer<typeof preparingCodonSchema>;
export type StartingCodon = z.infer<typeof startingCodonSchema>;
export type InitializingCodon = z.infer<typeof initializingCodonSchema>;
export type RunningCodon = z.infer<typeof runningCodonSchema>;
export type CompletingSentinelsCodon = z.infer<typeof completingSentinelsCodonSchema>;
export type CompletedCodon = z.infer<typeof completedCodonSchema>;
export type FailedCodon = z.infer<typeof failedCodonSchema>;
export type SkippedCodon = z.infer<typeof skippedCodonSchema>;
export type CodonExecution = z.infer<typeof codonExecutionSchema>;
/** Narrows a codon record by its status: `CodonExecutionOf<'failed'>` is `FailedCodon`. */
export type CodonExecutionOf<S extends CodonStatus> = Extract<CodonExecution, { status: S }>;
