import type { Execution, InterpreterInput, LoopEnding, Merge } from './outcomes.js';
import { buildPlans, type Entry, type Mark, type PlanEntry, type Retry, TOP } from './plan.js';
import type { Vote } from './plateau-verdict.js';

// The state of one interpretation, which the interpreter's modules share (the rules are in
// interpret.ts's header): one mutable record instead of closures over it, so the lanes, loops,
// conditions and resumes can live in files of their own.

/** Everything an interpretation has decided so far. */
export interface RunState {
  readonly input: InterpreterInput;
  readonly maxExecutions: number;
  /** The plan of every lane, which decisions change. */
  readonly plans: Map<string, PlanEntry[]>;
  /** The lane of every codon id. */
  readonly laneOfCodon: Map<string, string>;
  readonly executions: Execution[];
  /** The plan entry of each execution. */
  readonly entryOf: Entry[];
  readonly loops: LoopEnding[];
  readonly merges: Merge[];
  readonly votes: Vote[];
  /** Executions of an iteration a plateau error abandoned: no resume point. */
  readonly abandoned: Set<number>;
  /** The execution thread; resumes and rollbacks replace it. */
  thread: number[];
  /** Blocks moved past (merged, or skipped by their condition), on the thread. */
  readonly marks: Mark[];
  /** Branches a spent block budget ended, on the thread. */
  readonly ended: Mark[];
  /** Pending automatic retries, by lane. */
  readonly retries: Map<string, Retry>;
  /** The process run of the runtime the executions belong to. */
  session: number;
}

export function createRunState(input: InterpreterInput): RunState {
  const maxExecutions = input.maxExecutions ?? 10_000;
  const { plans, laneOfCodon } = buildPlans(input.hank);
  return {
    input,
    maxExecutions,
    plans,
    laneOfCodon,
    executions: [],
    entryOf: [],
    loops: [],
    merges: [],
    votes: [],
    abandoned: new Set<number>(),
    thread: [],
    marks: [],
    ended: [],
    retries: new Map<string, Retry>(),
    session: 0,
  };
}

export const onThread = (state: RunState, execution: number) => state.thread.includes(execution);

/** A loop codon's runtime id (`review#1`) without its iteration. */
export const baseIdOf = (codonId: string) => codonId.split('#')[0] ?? codonId;

const laneOf = (state: RunState, codonId: string) =>
  state.laneOfCodon.get(baseIdOf(codonId)) ?? TOP;

export const planOf = (state: RunState, codonId: string): PlanEntry[] =>
  state.plans.get(laneOf(state, codonId)) ?? [];

export const planIndex = (state: RunState, codonId: string) =>
  planOf(state, codonId).findIndex((entry) => entry.codonId === codonId);

export const laneOfExecution = (state: RunState, index: number) =>
  (state.entryOf[index] as Entry).lane;

/** The entry of `lane` after its newest execution on the thread (the top lane: also after blocks moved past). */
export const nextEntry = (state: RunState, lane: string): PlanEntry | undefined => {
  const { executions, thread, marks } = state;
  const plan = state.plans.get(lane) ?? [];
  const newest = thread.findLast((index) => laneOfExecution(state, index) === lane);
  let at = -1;
  if (newest !== undefined) {
    at = plan.findIndex((entry) => entry.codonId === (executions[newest] as Execution).codonId);
    if (at < 0) return undefined;
  }
  if (lane === TOP) {
    for (const mark of marks)
      at = Math.max(
        at,
        plan.findIndex((e) => e.codonId === mark.id),
      );
  }
  return plan[at + 1];
};

/** Throws when the run has gone on for `maxExecutions`: outcomes that never end a loop. */
export const guard = (state: RunState) => {
  if (state.executions.length >= state.maxExecutions) {
    throw new Error(`The hank did not end within ${state.maxExecutions} executions`);
  }
};
