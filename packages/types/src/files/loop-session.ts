import { z } from 'zod';

// The loop/pipeline runner's state files of seed 004, read by @hankweave/sessions. The readers
// are tolerant on purpose: the seed's own bash + jq tools write these files too, so every
// optional field may be missing or `null`, and unknown fields pass through (loose objects) so a
// rewrite keeps them. hankweave's own additions are optional and ignored by the seed's tools.

const optionalText = z.string().nullish();
const optionalCount = z.number().int().nonnegative().nullish();

/** One session of `.claude/loop-sessions.json`, keyed `loop-{session}` or `pipeline-{session}`. */
const loopSessionEntrySchema = z.looseObject({
  type: z.enum(['loop', 'pipeline']),
  loop_type: optionalText,
  pipeline_file: optionalText,
  started_at: z.string(),
  project_path: z.string(),
  max_iterations: optionalCount,
  status: z.enum(['running', 'completed', 'killed', 'unknown_termination']),
  killed_at: optionalText,
  completed_at: optionalText,
  note: optionalText,
  // hankweave's additions: who runs the session and what it owns.
  pid: z.number().int().nullish(),
  hostname: optionalText,
  execution_dir: optionalText,
  data_path: optionalText,
  hank_name: optionalText,
  /** A loop's pipeline session key (`pipeline-{session}`). */
  parent: optionalText,
  agent_config_dir: optionalText,
  updated_at: optionalText,
});

/** `.claude/loop-sessions.json`: every session a runner started. */
export const loopSessionRegistrySchema = z.looseObject({
  sessions: z.record(z.string(), loopSessionEntrySchema),
});
export type LoopSessionRegistry = z.infer<typeof loopSessionRegistrySchema>;

const loopVoteFields = {
  iteration: z.number().int().nonnegative(),
  timestamp: z.string(),
  plateau: z.boolean(),
  reasoning: optionalText,
  // hankweave's additions: the decision as reported, where it came from, which codon (and which
  // run of it) gave it.
  decision: z.enum(['continue', 'stop', 'error', 'missing']).nullish(),
  source: z.enum(['message', 'result.json']).nullish(),
  codon_id: optionalText,
  run_id: optionalText,
};

/** A plateau vote that a later codon (or attempt) of the same iteration superseded. */
export const loopVoteSchema = z.looseObject(loopVoteFields);
export type LoopVote = z.infer<typeof loopVoteSchema>;

/** One iteration's plateau decision. */
export const loopIterationRecordSchema = z.looseObject({
  ...loopVoteFields,
  /**
   * hankweave's addition: the iteration's earlier votes, oldest first (the record itself is the
   * newest). A rollback that cuts the newest vote's codon off makes the one before it count again.
   */
  earlier_votes: z.array(loopVoteSchema).nullish(),
});
export type LoopIterationRecord = z.infer<typeof loopIterationRecordSchema>;

/** `.claude/loop-state-{session}.json`: one loop's iteration history. */
export const loopStateSchema = z.looseObject({
  session: z.string(),
  type: z.literal('loop'),
  loop_type: optionalText,
  started_at: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  iteration: z.number().int().nonnegative(),
  history: z.array(loopIterationRecordSchema),
  completed_at: optionalText,
  reason: optionalText,
});
export type LoopState = z.infer<typeof loopStateSchema>;

/** `.claude/pipeline-runs/{session}/state.json`: a multi-stage pipeline's progress. */
export const pipelineStateSchema = z.looseObject({
  session: z.string(),
  pipeline: z.string(),
  started_at: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'killed']),
  current_stage: z.number().int().nonnegative(),
  stages: z.array(
    z.looseObject({
      name: z.string(),
      loop: z.string(),
      /** The stage's run limit; null when it has none (hankweave's codon stages run once). */
      runs: optionalCount,
      status: z.enum(['pending', 'running', 'completed', 'failed', 'skipped']),
      started_at: optionalText,
      completed_at: optionalText,
      iterations_run: optionalCount,
      reason: optionalText,
    }),
  ),
  completed_at: optionalText,
});
export type PipelineState = z.infer<typeof pipelineStateSchema>;
