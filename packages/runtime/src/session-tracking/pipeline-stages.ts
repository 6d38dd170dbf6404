import type { LoopStateFile, PipelineStage, PipelineStateFile } from '@hankweave/sessions';
import { isoSeconds } from '@hankweave/sessions';
import { executionThread } from '@hankweave/state';
import {
  type CodonExecution,
  type HankConfig,
  type HankweaveState,
  isLoopConfig,
  isTerminalCodonStatus,
  type LoopConfig,
} from '@hankweave/types';

/**
 * The pipeline state of seed 004, derived from state.json: one stage per top-level entry of the
 * hank (a codon is a stage of one run, a loop a stage of up to its limit). Pure, so it is right
 * after rollbacks and resumes alike. `current_stage` is 1-based, as in the seed's example (the
 * second of two stages running reads 2); once every stage is done it is the last stage's number.
 */
export function pipelineStateOf(input: {
  session: string;
  hankName: string;
  config: HankConfig;
  state: HankweaveState;
  loops: ReadonlyMap<string, LoopStateFile>;
  status: PipelineStateFile['status'];
  now: Date;
}): PipelineStateFile {
  const { config, state, loops } = input;
  // The thread's records, oldest first; a codon's latest record wins.
  const latest = new Map<string, CodonExecution>();
  for (const { codon } of [...executionThread(state).codons].reverse()) {
    latest.set(codon.codonId, codon);
  }
  const stages: PipelineStage[] = config.hank.map((item) => {
    if (!isLoopConfig(item)) return codonStage(item.id, latest.get(item.id));
    const loopState = loops.get(item.id);
    const codonIds = new Set(item.codons.map((codon) => codon.id));
    const ofLoop = [...latest.values()].filter((record) => {
      const base = baseIdOf(record.codonId);
      return base !== undefined && codonIds.has(base);
    });
    const first = ofLoop[0];
    const ended = loopState?.status === 'completed' || loopState?.status === 'failed';
    return {
      name: item.id,
      loop: item.id,
      runs: maxIterationsOf(item),
      status: ended
        ? (loopState.status as 'completed' | 'failed')
        : ofLoop.length > 0
          ? 'running'
          : 'pending',
      ...(first ? { started_at: seconds(first.startTime) } : {}),
      ...(ended ? { completed_at: loopState.completed_at ?? null } : {}),
      iterations_run: loopState?.iteration ?? 0,
      ...(ended ? { reason: loopState.reason ?? null } : {}),
    };
  });
  const open = stages.findIndex(
    (stage) => stage.status === 'running' || stage.status === 'pending',
  );
  const terminal = input.status !== 'running';
  return {
    session: input.session,
    pipeline: input.hankName,
    started_at: seconds(state.runs[0]?.startTime) ?? isoSeconds(input.now),
    status: input.status,
    current_stage: open === -1 ? stages.length : open + 1,
    stages,
    completed_at: terminal ? isoSeconds(input.now) : null,
  };
}

/** A codon's stage, from its latest record on the thread. */
function codonStage(id: string, record: CodonExecution | undefined): PipelineStage {
  const stage: PipelineStage = { name: id, loop: id, runs: 1, status: 'pending' };
  if (!record) return stage;
  const done = isTerminalCodonStatus(record.status);
  const failure = (record as { failureReason?: { message?: string } }).failureReason?.message;
  return {
    ...stage,
    status: !done
      ? 'running'
      : record.status === 'completed'
        ? 'completed'
        : record.status === 'skipped'
          ? 'skipped'
          : 'failed',
    started_at: seconds(record.startTime) ?? null,
    ...(done ? { completed_at: seconds((record as { endTime?: string }).endTime) ?? null } : {}),
    iterations_run: done ? 1 : 0,
    ...(record.status === 'failed' ? { reason: failure ?? 'failed' } : {}),
    ...(record.status === 'skipped' ? { reason: 'skipped' } : {}),
  };
}

/** `review` for the loop codon id `review#2`; undefined for a top-level id. */
function baseIdOf(codonId: string): string | undefined {
  const hash = codonId.lastIndexOf('#');
  return hash === -1 ? undefined : codonId.slice(0, hash);
}

/** A state.json time in the seed's format (to the second); undefined when absent or unreadable. */
function seconds(time: string | undefined): string | undefined {
  if (time === undefined) return undefined;
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? undefined : isoSeconds(date);
}

/** The seed's `max_iterations` of a loop: its limit, its plateau cap, or null (context loops). */
export function maxIterationsOf(loop: LoopConfig): number | null {
  const terminate = loop.terminateOn;
  if (terminate.type === 'iterationLimit') return terminate.limit;
  if (terminate.type === 'plateau') return terminate.maxIterations;
  return null;
}
