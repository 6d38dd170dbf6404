import { z } from 'zod';
import {
  budgetExceededSchema,
  checkpointTypeSchema,
  failureReasonSchema,
  loopContextSchema,
  timestampSchema,
  tokenUsageSchema,
} from '../common.js';
import { type CodonExecution, codonExecutionSchema } from '../state/codon-execution.js';
import { fileNodeSchema } from './file-node.js';

// Payloads of the server-state events (reference §3.3). All loose: journals from other versions
// carry extra fields (compatibility.md), and tools must keep them.

/**
 * A codon in `state.snapshot`: its execution record, as the original runtime writes it and as
 * hankweave writes it now; reading also accepts the bare runtime codon id that hankweave wrote
 * before (use `snapshotCodonId` to read either).
 */
export const snapshotCodonSchema = z.union([codonExecutionSchema, z.string().min(1)]);
export type SnapshotCodon = z.infer<typeof snapshotCodonSchema>;

/** The runtime codon id of a `state.snapshot` entry, in either of its forms. */
export const snapshotCodonId = (entry: CodonExecution | string): string =>
  typeof entry === 'string' ? entry : entry.codonId;

export const promptMetadataSchema = z.looseObject({
  name: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  version: z.string().optional(),
  author: z.string().optional(),
});

export const exitStatusSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('success') }),
  z.looseObject({ type: z.literal('error'), code: z.number().int() }),
  z.looseObject({ type: z.literal('killed'), signal: z.string() }),
]);
export type ExitStatus = z.infer<typeof exitStatusSchema>;

const modelUsageSchema = z.record(
  z.string(),
  z.looseObject({
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadInputTokens: z.number().optional(),
    cacheCreationInputTokens: z.number().optional(),
    costUSD: z.number(),
  }),
);

const checkpointListItemSchema = z.looseObject({
  codonId: z.string(),
  codonName: z.string(),
  checkpointType: checkpointTypeSchema,
  sha: z.string(),
  status: z.string(),
  timestamp: timestampSchema,
});

/** A parallel block's branch, on the events of the codons that run in it (and their sentinels'). */
export const eventBranchSchema = z.looseObject({ blockId: z.string(), branchId: z.string() });

/**
 * A codon record in `state.snapshot`'s `activeCodons` (and, when it ran in a parallel branch, in
 * `completedCodons`): the execution record as state.json holds it, plus the branch it runs in
 * (issue 36). Ours: the original runtime writes neither field.
 */
const snapshotBranchCodonSchema = codonExecutionSchema.and(
  z.looseObject({ branch: eventBranchSchema.optional() }),
);

export const serverStateEventData = {
  'codon.started': z.looseObject({
    codonId: z.string(),
    codonName: z.string(),
    codonDescription: z.string().optional(),
    sessionId: z.string(),
    previousSessionId: z.string().optional(),
    startTime: timestampSchema,
    promptMetadata: promptMetadataSchema.optional(),
    /** The parallel branch the codon runs in (issue 36). Ours. */
    branch: eventBranchSchema.optional(),
  }),
  'codon.completed': z.looseObject({
    codonId: z.string(),
    success: z.boolean(),
    cost: z.number(),
    duration: z.number(),
    exitStatus: exitStatusSchema,
    failureReason: failureReasonSchema.optional(),
    failureIgnored: z.boolean().optional(),
    /** A codon the runtime skipped because its `when` (or its loop's) did not hold. Ours. */
    skippedBy: z.literal('condition').optional(),
    skipReason: z.string().optional(),
    /** The parallel branch the codon ran in (issue 36). Ours. */
    branch: eventBranchSchema.optional(),
    // The original runtime writes `null` for "not exceeded" (compatibility.md).
    budgetExceeded: budgetExceededSchema.nullish(),
  }),
  'codon.extended': z.looseObject({
    codonId: z.string(),
    codonName: z.string(),
    extensionNumber: z.number().int(),
    exhaustWithPrompt: z.string(),
    cumulativeTokens: z.union([z.number(), tokenUsageSchema]),
    cumulativeCost: z.number(),
  }),
  'state.snapshot': z.looseObject({
    /**
     * A running codon's record (the original's field). When several run (a parallel block's
     * branches), the one that started first: `activeCodons[0]`, the codon `codon.skip` and
     * `codon.forceStop` without a `codonId` act on.
     */
    currentCodon: snapshotCodonSchema.nullable().optional(),
    /**
     * Every running codon's record, oldest first, each with its `branch` when it runs in a
     * parallel branch; empty when none runs. Ours (issue 36): absent from the original's
     * journals and from hankweave's before it.
     */
    activeCodons: z.array(snapshotBranchCodonSchema).optional(),
    completedCodons: z.array(snapshotCodonSchema),
    fileTree: z.array(fileNodeSchema),
    totalCost: z.number(),
    totalTime: z.number(),
    recentFileAccess: z
      .looseObject({ path: z.string(), content: z.string(), timestamp: timestampSchema })
      .optional(),
    isRollingBack: z.boolean(),
  }),
  'server.idle': z.looseObject({
    reason: z.enum(['startup', 'codon-completed', 'all-codons-completed', 'rollback-completed']),
    message: z.string(),
  }),
  'token.usage': z.looseObject({
    codonId: z.string(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheCreationTokens: z.number(),
    cacheReadTokens: z.number(),
    totalCost: z.number(),
    modelId: z.string().optional(),
    modelUsage: modelUsageSchema.optional(),
  }),
  info: z.looseObject({ message: z.string(), details: z.array(z.unknown()).optional() }),
  error: z.looseObject({
    message: z.string(),
    codon: z.string().optional(),
    fatal: z.boolean(),
    severity: z.enum(['fatal', 'codon', 'operation', 'warning']),
    context: z.unknown().optional(),
    code: z.string().optional(),
  }),
  'checkpoint.list': z.looseObject({
    runId: z.string().nullable(),
    currentBranch: z.string().nullable(),
    checkpoints: z.array(checkpointListItemSchema),
  }),
  'rollback.started': z.looseObject({
    fromRun: z.string(),
    fromCodon: z.string().nullable(),
    toCodon: z.string().nullable(),
    toCheckpoint: z.string(),
    checkpointType: z.string(),
    codonsToProcess: z.array(z.string()),
  }),
  'rollback.progress': z.looseObject({
    currentStep: z.number().int(),
    totalSteps: z.number().int(),
    message: z.string(),
  }),
  'rollback.codonCheckpoint': z.looseObject({
    codonId: z.string(),
    codonName: z.string(),
    checkpoint: z.string(),
    checkpointType: z.string(),
    message: z.string(),
  }),
  'rollback.completed': z.looseObject({
    fromRun: z.string(),
    toRun: z.string(),
    checkpoint: z.string(),
    codonId: z.string().nullable(),
    codonName: z.string().nullable(),
    checkpointType: z.string(),
    autoRestart: z.boolean(),
    /** What the rollback moved out of agentRoot (not in the original runtime). */
    debris: z
      .looseObject({
        directory: z.string(),
        count: z.number().int(),
        files: z.array(z.string()),
        removedDirectories: z.number().int(),
        failed: z.array(z.looseObject({ path: z.string(), error: z.string() })).optional(),
      })
      .optional(),
  }),
  'rollback.rigCleanup': z.looseObject({
    codonId: z.string(),
    codonName: z.string(),
    directories: z.array(z.string()),
    status: z.enum(['started', 'completed', 'failed', 'partial']),
    successfulCleanups: z.number().int().optional(),
    failedCleanups: z.array(z.looseObject({ directory: z.string(), error: z.string() })).optional(),
    error: z.string().optional(),
  }),
  'rollback.archiveRestore': z.looseObject({
    codonId: z.string(),
    restoredPaths: z.array(z.string()),
    failedPaths: z.array(z.unknown()).optional(),
    status: z.enum(['completed', 'partial', 'failed']),
  }),
  'state.transition': z.looseObject({
    transitionType: z.string(),
    runId: z.string().optional(),
    codonId: z.string().optional(),
    transition: z.looseObject({ type: z.string(), data: z.unknown() }),
    resultingState: z.looseObject({
      currentRunId: z.string().nullable(),
      runCount: z.number().int(),
      totalCost: z.number(),
      currentRunCost: z.number(),
    }),
  }),
  'loop.iteration.completed': z.looseObject({
    loopId: z.string(),
    iteration: z.number().int(),
    durationMs: z.number(),
    costUsd: z.number(),
    tokensUsed: z.number(),
    isFinal: z.boolean(),
    terminationReason: z
      .enum(['iteration_limit', 'context_exceeded', 'sentinel_skip', 'failure', 'plateau'])
      .optional(),
  }),
  /** A plateau loop's iteration decision (seed 004), recorded in its loop state's history first. */
  'loop.iteration.decision': z.looseObject({
    loopId: z.string(),
    /** The runtime's iteration index (0-based, as in `review#0`). */
    iteration: z.number().int(),
    codonId: z.string(),
    decision: z.enum(['continue', 'stop', 'error', 'missing']),
    plateau: z.boolean(),
    reason: z.string().nullable(),
    source: z.enum(['message', 'result.json']).nullable(),
  }),
  'archive.completed': z.looseObject({ codonId: z.string(), archivedPaths: z.array(z.string()) }),
  'archive.partial': z.looseObject({
    codonId: z.string(),
    archivedPaths: z.array(z.string()),
    failedPaths: z.array(z.looseObject({ path: z.string(), error: z.string() })),
  }),
  'budget.summary': z.looseObject({
    ceiling: z.looseObject({
      maxDollars: z.number().optional(),
      maxTimeSeconds: z.number().optional(),
    }),
    allocation: z.string(),
    rows: z.array(
      z.looseObject({
        codonId: z.string(),
        loopContext: loopContextSchema.optional(),
        status: z.enum(['completed', 'failed', 'skipped', 'exceeded', 'running']),
        budget: z.looseObject({}),
        actual: z.looseObject({
          dollars: z.number(),
          timeSeconds: z.number(),
          outputTokens: z.number(),
        }),
      }),
    ),
    totals: z.looseObject({
      budgetDollars: z.number().optional(),
      actualDollars: z.number(),
      actualTimeSeconds: z.number(),
    }),
  }),
} as const;
