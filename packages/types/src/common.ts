import { z } from 'zod';

/**
 * An ISO 8601 timestamp as written by hankweave. Reading is tolerant: any string is accepted,
 * because files from other versions are read too; writers always use `new Date().toISOString()`.
 */
export const timestampSchema = z.string().min(1);

/** Token counts of one agent call or a running total (seed 000 `TokenUsage`). */
export const tokenUsageSchema = z.looseObject({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cacheCreationTokens: z.number().nonnegative(),
  cacheReadTokens: z.number().nonnegative(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** A zeroed token usage, the start of every running total. */
export const emptyTokenUsage = (): TokenUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
});

/** The sum of two token usages (a new object; extra fields of `a` are kept). */
export const addTokenUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  ...a,
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
  cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
});

export const FAILURE_TYPES = [
  'timeout',
  'rate-limit',
  'api-error',
  'sentinel-load-failure',
  'unknown',
] as const;
export type FailureType = (typeof FAILURE_TYPES)[number];

/**
 * Why a codon failed, and whether trying again may help (reference §4.9). `interrupted` is our
 * one addition: the codon was stopped by Ctrl-C, SIGTERM or a client's shutdown, a stop rather
 * than a fault. Such a reason keeps `type: 'unknown'` (retriable) and a message starting with
 * `Interrupted`, so readers of the original, which know only the five types, still parse it.
 */
export const failureReasonSchema = z.looseObject({
  type: z.enum(FAILURE_TYPES),
  retriable: z.boolean(),
  message: z.string().optional(),
  sentinelRefs: z.array(z.string()).optional(),
  retryAfterMs: z.number().nonnegative().optional(),
  interrupted: z.boolean().optional(),
});
export type FailureReason = z.infer<typeof failureReasonSchema>;

/**
 * True when a failure is an interruption (a stop, not a fault): `interrupted: true`, or, in
 * executions written before that flag, the runtime's message `Interrupted: the server shut
 * down ...`.
 */
export function isInterruption(reason: FailureReason | undefined | null): boolean {
  if (!reason) return false;
  return reason.interrupted === true || /^Interrupted\b/.test(reason.message ?? '');
}

/** Where a plan entry sits inside a loop (seed 000 "Loop Context"). Loose: old files add fields. */
export const loopContextSchema = z.looseObject({
  loopId: z.string(),
  iteration: z.number().int().nonnegative(),
  codonIndexInLoop: z.number().int().nonnegative(),
});
export type LoopContext = z.infer<typeof loopContextSchema>;

export const CHECKPOINT_TYPES = [
  'rig-setup',
  'completed',
  'error',
  'skipped',
  'exit',
  'merge',
] as const;
/**
 * The kinds of checkpoint commit (seed 002 "Checkpoint Types"); `merge` joins the branches of a
 * parallel block (issue 36).
 */
export const checkpointTypeSchema = z.enum(CHECKPOINT_TYPES);
export type CheckpointType = z.infer<typeof checkpointTypeSchema>;

/** `{currency, limit, used}`: which budget a codon ran out of. */
export const budgetExceededSchema = z.looseObject({
  currency: z.string(),
  limit: z.number(),
  used: z.number(),
});
export type BudgetExceeded = z.infer<typeof budgetExceededSchema>;
