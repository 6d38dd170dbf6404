import { z } from 'zod';
import { loopContextSchema, timestampSchema } from '../common.js';
import { codonExecutionSchema } from './codon-execution.js';

export const RUN_STATUSES = ['running', 'completed', 'failed', 'crashed'] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatusSchema>;

export const CONTINUATION_REASONS = ['retry', 'rollback', 'continue'] as const;

/** How a run began: from nothing, or continuing an earlier run (seed 000 "Starting Conditions"). */
export const startingConditionsSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('fresh'), initialCheckpointSha: z.string().optional() }),
  z.looseObject({
    type: z.literal('continuation'),
    source: z.looseObject({
      runId: z.string(),
      // null: the new run starts from the beginning of the source run.
      afterCodon: z.string().nullable(),
      checkpointSha: z.string(),
    }),
    reason: z.enum(CONTINUATION_REASONS).optional(),
  }),
]);
export type StartingConditions = z.infer<typeof startingConditionsSchema>;

/** One server lifecycle (seed 000 "Run Structure"). */
export const runSchema = z.looseObject({
  runId: z.string().min(1),
  runFolder: z.string(),
  gitBranch: z.string(),
  startingConditions: startingConditionsSchema,
  codons: z.array(codonExecutionSchema),
  status: runStatusSchema,
  startTime: timestampSchema,
  endTime: timestampSchema.optional(),
  serverPid: z.number().int(),
});
export type Run = z.infer<typeof runSchema>;

/**
 * The codon config frozen into the plan. Loose on purpose: plans written by other versions carry
 * fields this version does not know, and continuation runs must reuse them verbatim.
 */
export const planCodonSchema = z.looseObject({ id: z.string().min(1), name: z.string() });
export type PlanCodon = z.infer<typeof planCodonSchema>;

/**
 * Where a plan entry sits in a parallel block (issue 36; ours, so readers of the original ignore
 * it): a codon of branch `branchId`, the block's resolver, or the block's merge. The merge entry
 * is the block's own place in the plan: its record (codon id = the block id) says the branches
 * were merged back into agentRoot, so everything after the block follows it on the thread.
 */
export const parallelContextSchema = z.looseObject({
  blockId: z.string().min(1),
  role: z.enum(['branch', 'resolver', 'merge']),
  branchId: z.string().min(1).optional(),
});
export type ParallelContext = z.infer<typeof parallelContextSchema>;

/** One entry of the flattened plan; loop iterations get runtime ids `id#n` (seed 000). */
export const executionCodonEntrySchema = z.looseObject({
  codon: planCodonSchema,
  codonId: z.string().min(1),
  loopContext: loopContextSchema.optional(),
  parallelContext: parallelContextSchema.optional(),
});
export type ExecutionCodonEntry = z.infer<typeof executionCodonEntrySchema>;

/** `.hankweave/state.json` (seed 000). `runs` are newest first. */
export const stateSchema = z.looseObject({
  runs: z.array(runSchema),
  currentRunId: z.string().nullable(),
  initialCheckpoint: z.string().optional(),
  executionPlan: z.array(executionCodonEntrySchema),
});
export type HankweaveState = z.infer<typeof stateSchema>;

/** An empty state: no runs, no plan. */
export const emptyState = (): HankweaveState => ({
  runs: [],
  currentRunId: null,
  executionPlan: [],
});

export const STATE_VALIDATION_ERROR_TYPES = [
  'missing_run',
  'invalid_codon',
  'corrupted_data',
] as const;
export const STATE_VALIDATION_WARNING_TYPES = [
  'orphaned_folder',
  'missing_checkpoint',
  'cost_mismatch',
] as const;

/** A problem that prevents continuing from this state (seed 000 "State Validation"). */
export interface ValidationError {
  type: (typeof STATE_VALIDATION_ERROR_TYPES)[number];
  message: string;
}
/** A problem worth reporting that does not prevent continuing. */
export interface ValidationWarning {
  type: (typeof STATE_VALIDATION_WARNING_TYPES)[number];
  message: string;
}
/** The result of validating a loaded state. */
export interface StateValidation {
  valid: boolean;
  errors: ValidationError[];
  warnings: ValidationWarning[];
}
