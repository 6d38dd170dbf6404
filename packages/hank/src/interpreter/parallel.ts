import type { Condition, ParallelConfig } from '@hankweave/types';
import type { Execution, InterpreterInput, Merge, MergeResult, Stop } from './outcomes.js';
import {
  type Entry,
  laneKey,
  type Mark,
  type PlanEntry,
  type Retry,
  resolverEntry,
} from './plan.js';

// Parallel blocks in the reference interpreter: a block's condition, the interleaving of its
// branches, and its merge. The rules are in interpret.ts's header; the state is the interpreter's.

/** What a block needs of the interpreter: its state, and how it runs one step of a lane. */
export interface BlockHost {
  readonly input: InterpreterInput;
  readonly plans: ReadonlyMap<string, readonly PlanEntry[]>;
  readonly executions: readonly Execution[];
  readonly merges: Merge[];
  /** Blocks moved past, on the thread. */
  readonly marks: Mark[];
  /** Branches a spent block budget ended, on the thread. */
  readonly ended: Mark[];
  /** Pending automatic retries, by lane. */
  readonly retries: ReadonlyMap<string, Retry>;
  session(): number;
  /** True when an execution of the block is on the thread. */
  started(block: ParallelConfig): boolean;
  /** Whether a condition holds, as the top level sees the thread. */
  holds(condition: Condition, worldId: string): boolean;
  nextEntry(lane: string): PlanEntry | undefined;
  /** One step of a lane (see lane-step.ts): a stop, or undefined to go on. */
  step(entry: Entry): Stop | undefined;
  skipByCondition(entry: Entry): number;
  /** Throws when the run has gone on for `maxExecutions`. */
  guard(): void;
}

/** The lanes of a block that still have a codon to run (or a retry pending), in block order. */
export function readyLanes(host: BlockHost, block: ParallelConfig): string[] {
  return block.branches
    .map((branch) => laneKey(block.id, branch.id))
    .filter(
      (lane) =>
        !host.ended.some((mark) => mark.id === lane) &&
        (host.retries.has(lane) || host.nextEntry(lane) !== undefined),
    );
}

/** Skips every codon of every branch's first pass; the block is moved past, never having run. */
function skipBlock(host: BlockHost, block: ParallelConfig): void {
  for (const branch of block.branches) {
    for (const entry of host.plans.get(laneKey(block.id, branch.id)) ?? []) {
      if (!('codon' in entry) || (entry.loop && entry.loop.iteration > 0)) continue;
      host.skipByCondition(entry);
    }
  }
  host.marks.push({ id: block.id, at: host.executions.length });
}

/** Merges a block whose branches are done; a stop, or undefined when the block is done. */
function mergeBlock(host: BlockHost, block: ParallelConfig): Stop | undefined {
  const attempt = host.merges.filter((merge) => merge.blockId === block.id).length;
  const cut = host.ended
    .filter((mark) => mark.id.startsWith(`${block.id}/`))
    .map((mark) => mark.id.slice(block.id.length + 1));
  const done = (result: MergeResult): Stop | undefined => {
    host.merges.push({
      blockId: block.id,
      result,
      session: host.session(),
      afterExecutions: host.executions.length,
      ...(cut.length > 0 ? { branchesCut: cut } : {}),
    });
    if (result === 'conflict') return 'failed';
    host.marks.push({ id: block.id, at: host.executions.length });
    return undefined;
  };
  if (!(host.input.mergeConflicts?.(block.id, attempt) ?? false)) return done('clean');
  const onConflict = block.merge.onConflict;
  if (onConflict === 'ordered') return done('ordered');
  if (onConflict === 'fail') return done('conflict');
  const entry = resolverEntry(block);
  for (;;) {
    host.guard();
    const before = host.executions.length;
    const stop = host.step(entry);
    if (stop) {
      done('conflict');
      return stop;
    }
    if (host.retries.has(entry.lane)) continue;
    // No execution: the block's budget had nothing left for the resolver.
    const execution = host.executions.length > before ? host.executions.at(-1) : undefined;
    return done(execution === undefined || execution.status === 'failed' ? 'ordered' : 'resolved');
  }
}

/** Runs a block: its condition, its branches in the schedule's order, then its merge. */
export function runBlock(host: BlockHost, block: ParallelConfig): Stop | undefined {
  if (!host.started(block) && block.when && !host.holds(block.when, block.id)) {
    skipBlock(host, block);
    return undefined;
  }
  for (;;) {
    host.guard();
    const ready = readyLanes(host, block);
    if (ready.length === 0) return mergeBlock(host, block);
    const ids = ready.map((lane) => lane.slice(block.id.length + 1));
    const chosen = host.input.schedule?.(block.id, ids);
    const lane = ready[chosen !== undefined && ids.includes(chosen) ? ids.indexOf(chosen) : 0];
    const entry =
      host.retries.get(lane as string)?.entry ?? (host.nextEntry(lane as string) as Entry);
    const stop = host.step(entry);
    if (stop) return stop;
  }
}
