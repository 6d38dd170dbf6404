import type { Fs } from '@hankweave/durable-io';
import { pipelineStateSchema } from '@hankweave/types';
import { orderFields } from './internal/entry-order.js';
import { writeJson } from './internal/json-file.js';
import { readStateFile } from './internal/state-file.js';

// The single writer of a pipeline state is the runtime holding its execution's lock: no file lock.

/** One stage of a pipeline: a hank's top-level codon (runs once) or loop (runs up to its limit). */
export interface PipelineStage {
  name: string;
  /** The loop (or codon) id the stage runs. */
  loop: string;
  /** The stage's run limit; null when it has none. */
  runs: number | null;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'skipped';
  started_at?: string | null;
  completed_at?: string | null;
  iterations_run?: number | null;
  reason?: string | null;
  [extra: string]: unknown;
}

/** `P/.claude/pipeline-runs/{session}/state.json`. */
export interface PipelineStateFile {
  session: string;
  /** The pipeline's name (for a hank run, the hank). */
  pipeline: string;
  started_at: string;
  status: 'running' | 'completed' | 'failed' | 'killed';
  /** Index into `stages` of the stage running (or the last one run). */
  current_stage: number;
  stages: PipelineStage[];
  completed_at?: string | null;
  [extra: string]: unknown;
}

const STATE_ORDER = [
  'session',
  'pipeline',
  'started_at',
  'status',
  'current_stage',
  'stages',
  'completed_at',
];
const STAGE_ORDER = [
  'name',
  'loop',
  'runs',
  'status',
  'started_at',
  'completed_at',
  'iterations_run',
  'reason',
];

/**
 * Reads a pipeline state, tolerating what the seed's tools write (nulls, missing optionals,
 * extra fields; a stage without `runs` reads as null). Undefined when missing.
 * @throws {SessionsError} SESSIONS_CORRUPT_FILE when it is not JSON or not a pipeline state.
 */
export async function readPipelineState(
  file: string,
  fs?: Fs,
): Promise<PipelineStateFile | undefined> {
  const state = await readStateFile(file, pipelineStateSchema, 'pipeline state', fs);
  if (state === undefined) return undefined;
  const stages = state.stages.map((stage) => ({ ...stage, runs: stage.runs ?? null }));
  return { ...state, stages } as PipelineStateFile;
}

/**
 * Writes a pipeline state durably and atomically (creating its directories) in the seed's field
 * order; `completed_at` is written as null when unset, as in the seed's example.
 * @throws {SessionsError} SESSIONS_IO
 */
export async function writePipelineState(
  file: string,
  state: PipelineStateFile,
  fs?: Fs,
): Promise<void> {
  const ordered = orderFields(
    {
      ...state,
      stages: state.stages.map((stage) => orderFields(stage, STAGE_ORDER)),
      completed_at: state.completed_at ?? null,
    },
    STATE_ORDER,
  );
  await writeJson(file, ordered, fs);
}
