import { z } from 'zod';

// The loop/pipeline runner's state files of seed 004. hankweave's plateau loops
// (`terminateOn: {type: "plateau"}`) record their per-iteration decisions in this shape.

const nullableTime = z.string().nullable().optional();

/** `.claude/loop-sessions.json`: every session a runner started. */
export const loopSessionRegistrySchema = z.looseObject({
  sessions: z.record(
    z.string(),
    z.looseObject({
      type: z.enum(['loop', 'pipeline']),
      loop_type: z.string().optional(),
      pipeline_file: z.string().optional(),
      started_at: z.string(),
      project_path: z.string(),
      max_iterations: z.number().int().positive().optional(),
      status: z.enum(['running', 'completed', 'killed', 'unknown_termination']),
      killed_at: nullableTime,
      completed_at: nullableTime,
      note: z.string().nullable().optional(),
    }),
  ),
});
export type LoopSessionRegistry = z.infer<typeof loopSessionRegistrySchema>;

/** One iteration's plateau decision. */
export const loopIterationRecordSchema = z.looseObject({
  iteration: z.number().int().nonnegative(),
  timestamp: z.string(),
  plateau: z.boolean(),
  reasoning: z.string().nullable().optional(),
});
export type LoopIterationRecord = z.infer<typeof loopIterationRecordSchema>;

/** `.claude/loop-state-{session}.json`: one loop's iteration history. */
export const loopStateSchema = z.looseObject({
  session: z.string(),
  type: z.literal('loop'),
  loop_type: z.string().optional(),
  started_at: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  iteration: z.number().int().nonnegative(),
  history: z.array(loopIterationRecordSchema),
  completed_at: nullableTime,
  reason: z.string().nullable().optional(),
});
export type LoopState = z.infer<typeof loopStateSchema>;

/** `.claude/pipeline-runs/{session}/state.json`: a multi-stage pipeline's progress. */
export const pipelineStateSchema = z.looseObject({
  session: z.string(),
  pipeline: z.string(),
  started_at: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  current_stage: z.number().int().nonnegative(),
  stages: z.array(
    z.looseObject({
      name: z.string(),
      loop: z.string(),
      runs: z.number().int().nonnegative(),
      status: z.enum(['pending', 'running', 'completed', 'failed']),
      started_at: z.string().optional(),
      completed_at: nullableTime,
      iterations_run: z.number().int().nonnegative().optional(),
      reason: z.string().nullable().optional(),
    }),
  ),
  completed_at: nullableTime,
});
export type PipelineState = z.infer<typeof pipelineStateSchema>;
