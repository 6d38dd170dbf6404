import { holds, skipByCondition } from './condition-gate.js';
import { step } from './lane-step.js';
import type { Interpretation, InterpreterInput, Stop } from './outcomes.js';
import { type BlockHost, runBlock } from './parallel.js';
import { TOP } from './plan.js';
import { cutAtResumePoint, rollBack } from './resume.js';
import { createRunState, guard, nextEntry } from './run-state.js';

/*
 * The reference interpreter: the executable specification of hank semantics. Given a hank and
 * the outcome of every codon attempt, it says which codon executions must happen, in which
 * order, how each process run of the runtime stops, and how each loop ends. The runtime is
 * property-tested against it (packages/runtime/src/semantics). It is pure: no I/O, no clock.
 *
 * The rules, in the order a run meets them:
 *
 * Plan. Top-level codons keep their id; a loop contributes its iteration 0 (`id#0`). The plan
 * is a list that decisions change: after a loop codon ends, the loop either terminates (every
 * later entry of the loop leaves the plan) or its successor is made sure of (the next codon of
 * the iteration, or the whole next iteration after the iteration's last codon), inserted right
 * after it when missing. Decisions are idempotent, so a rollback never needs the plan undone.
 *
 * Next codon. The plan entry after the newest execution on the execution thread (the thread
 * is every execution, less what resumes and rollbacks cut off); the first entry when the
 * thread is empty. None: the run completed.
 *
 * Conditions, before every codon that is not an automatic retry, before its budget gate: a
 * loop's `when` at the first codon of its first iteration, then the codon's own `when`. A codon
 * whose condition does not hold is skipped (`skippedBy: condition`, nothing spent, no session)
 * and the plan goes on as after any skip. A loop whose condition does not hold skips every codon
 * of its first iteration and leaves the plan, with no loop ending recorded (it never ran). A
 * `{codon, status}` condition reads the newest execution on the thread of that codon (any
 * iteration); files and sentinel outputs come from `world`.
 *
 * Budget gate, before every codon that is not an automatic retry: when the hank's container has
 * nothing left for it, the run stops (budget-exceeded, or budget-failed with `onExceeded:
 * fail`); when its loop's container has nothing left, the loop ends (`failure`): its remaining
 * entries leave the plan and the hank goes on after it, or, with `onExceeded: fail`, the run
 * stops (budget-failed) with the loop still in the plan, so a resume meets it again.
 *
 * An attempt. A `continue-previous` codon needs the newest usable execution, on the thread, of
 * the plan entry before it (completed, or skipped after a message); without one it fails
 * (`no-session`, not retriable) and no agent starts. Otherwise the outcome of the attempt plays:
 * a skip or an interrupt ends it at once; else its sessions run in order, each adding its cost.
 * When the attempt's spend passes its dollar limit, the runtime stops the agent: the codon
 * completes, or fails (`budget`, not retriable) with `onExceeded: fail`, and nothing the
 * session says afterwards counts. A session that exceeds the context completes the codon in a
 * `contextExceeded` loop and fails it (not retriable) anywhere else; an API error fails it; an
 * `ok` session is extended (`exhaustWithPrompt`) until `maxExtensions`, else it completes.
 *
 * Plateau votes. A completed attempt in a plateau loop records its vote; the last codon of an
 * iteration that recorded none records `missing` (a continue), unless an earlier codon of the
 * iteration voted. Only votes of executions on the thread count; the newest vote of an
 * iteration wins.
 *
 * After a failure. An interrupt stops the run (`interrupted`). `ignore` goes on as if the codon
 * had ended; `retry` runs the codon again (no budget gate) while the failure is retriable and
 * attempts remain (`maxAttempts`, default 3); otherwise, and for `abort`, the run stops
 * (`failed`).
 *
 * After a codon that completed, was skipped, or failed and was ignored, in a loop: the context
 * was exceeded in a `contextExceeded` loop → the loop ends (`context_exceeded`). At the last
 * codon of an iteration: a budget stop → `failure`; in a `contextExceeded` loop, an iteration whose
 * codons all failed (ignored) or were skipped by their conditions → `failure` (its session cannot
 * grow, so it would never overflow);
 * `iterationLimit` reached → `iteration_limit`; a plateau loop's verdict on the iteration's votes → `plateau`, `iteration_limit`, or an error
 * vote: the loop ends (`failure`) and the run stops (`failed`); the iteration is abandoned, so
 * the next resume runs it again.
 *
 * Retry series. A codon starts its series at attempt 1, except after an interrupt, when it goes
 * on with the attempt that was interrupted.
 *
 * Resume. Every start after a stop continues after the newest execution on the thread that the
 * plan moved past (completed, skipped, or failed with `ignore`; not one of an abandoned
 * iteration): the thread is cut there. So a finished execution runs nothing more, and a failed
 * codon runs again. A rollback then cuts the thread after the newest completed execution of the
 * codon it names.
 *
 * Money spent stays spent: budgets count every execution, also those cut off the thread.
 *
 * Parallel blocks. A block is one entry of the top-level plan; each of its branches is a
 * sequence of its own, a lane with its own plan (codons, and loops expanded as above) and its
 * own thread: the executions on the execution thread that belong to the branch. Everything said
 * above of "the plan" and "the thread" holds within a lane. The top-level lane moves past a block
 * when the block merges (or its condition skips it); its resolver is a lane of one codon.
 *
 * A block starts after the item before it. Its `when` is evaluated first, once (not again when a
 * resume meets a block that already ran a codon): when it does not hold, every codon of every
 * branch's first pass (a loop's iteration 0) is recorded skipped (`skippedBy: condition`),
 * branch by branch, nothing merges, and the run goes on after the block. The block stays in the
 * plan: a rollback to before it evaluates its condition again.
 *
 * Interleaving. Which branch runs its next codon attempt is not determined by the hank, so it
 * is an input: `schedule(blockId, ready)` picks among the branches ready to run one (in block
 * order; an answer not among them counts as the first, and so does no `schedule`: branch by
 * branch). A branch is ready while its lane has a plan entry after its thread, or a retry
 * pending, and no spent block budget ended it. Each pick runs one step of that lane: its
 * conditions, its budget gate, one attempt and what its failure policy says (a retry waits for
 * the branch's next pick). `maxConcurrency` changes when codons run, never which or in what
 * order each branch runs them, so it is not modelled: a schedule is any interleaving.
 *
 * A branch codon's `when` reads statuses on the thread, less the executions of its sibling
 * branches (they run concurrently): its own branch's, and everything before the block. A codon
 * after the block reads every branch. `continue-previous` in a branch needs the previous entry
 * of its own lane; the first codon of a branch has none (`no-session`).
 *
 * Budgets. The hank's container and the block's (its children: its branches, then its resolver)
 * are shared by every branch; the gate runs before every branch codon on the spend of every
 * execution so far, in schedule order. A spent hank container stops the run as above: every
 * branch stops, nothing more is recorded. A spent block container with `onExceeded: fail` stops
 * the run (budget-failed), and a resume meets it again; with `complete`, every branch of the
 * block that is not finished ends where it is (its remaining codons do not run; a later resume
 * does not run them either), and the block merges what its branches did (`branchesCut` names
 * the ended ones) and the run goes on after it. A resolver with no block budget left does not
 * run: the merge settles by branch order (`ordered`).
 *
 * Failure. A branch codon whose failure stops the run (`abort`, retries used up, a plateau
 * error) stops every branch at once: no branch starts another attempt, and no attempt is
 * recorded for them (an attempt that a failure cut short in the runtime is as if never started).
 * An interrupt stops the run (`interrupted`). `ignore` and `retry` work within the branch.
 *
 * Merge. When no branch is ready, the block merges. Whether the `attempt`-th merge of the block
 * conflicts is an input (`mergeConflicts`, default no). No conflict: `clean`. A conflict with
 * `onConflict: ordered`: `ordered`. With `fail`: `conflict`, and the run stops (`failed`); a
 * resume merges again without re-running a branch. With a resolver: it runs as the codon
 * `<blockId>.resolve` (its outcome from `outcome()`, its failure policy its own, budget gate as
 * any block codon); completed or skipped by a person: `resolved`; failed and ignored: the merge
 * settles by branch order (`ordered`); a failure that stops the run, an interrupt or a budget
 * stop: `conflict`, and a resume merges (and resolves) again. Every merge is recorded; the block
 * is moved past after every result but `conflict`.
 *
 * Resume and rollback in a block. A resume cuts each lane's thread after its newest execution
 * the plan moved past, so finished branches run nothing more and each unfinished one goes on
 * where it stopped. A rollback to a codon of a branch cuts that branch's thread after it, keeps
 * what the sibling branches did, and cuts everything after the block's merge: the block merges
 * again after the branch runs again. A rollback to a codon before the block cuts every branch.
 * A rollback to a block's resolver keeps the merge it resolved.
 *
 * Where the rules are carried out, one concern a file: run-state.ts (the plans and the thread),
 * lane-step.ts (a lane's step: conditions, budget gate, failure policy), attempt.ts (an attempt
 * and its dollar limits), condition-gate.ts (conditions), loops.ts (loop endings and plateau
 * votes), parallel.ts (blocks), resume.ts (resume and rollback).
 */

/** The codon executions, stops and loop endings a hank must produce for the given outcomes. */
export function interpret(input: InterpreterInput): Interpretation {
  const state = createRunState(input);
  const stops: Stop[] = [];

  const host: BlockHost = {
    input,
    plans: state.plans,
    executions: state.executions,
    merges: state.merges,
    marks: state.marks,
    ended: state.ended,
    retries: state.retries,
    session: () => state.session,
    started: (block) => state.thread.some((index) => state.entryOf[index]?.block?.config === block),
    holds: (condition, worldId) => holds(state, condition, undefined, worldId),
    nextEntry: (lane) => nextEntry(state, lane),
    step: (entry) => step(state, host, entry),
    skipByCondition: (entry) => skipByCondition(state, entry),
    guard: () => guard(state),
  };

  const runSession = (): Stop => {
    state.retries.clear();
    for (;;) {
      guard(state);
      const entry = state.retries.get(TOP)?.entry ?? nextEntry(state, TOP);
      if (!entry) return 'completed';
      const stop = 'parallel' in entry ? runBlock(host, entry.parallel) : step(state, host, entry);
      if (stop) return stop;
    }
  };

  for (const userStep of [undefined, ...(input.steps ?? [])]) {
    if (userStep !== undefined) {
      state.session++;
      cutAtResumePoint(state);
      if (userStep.kind === 'rollback') rollBack(state, userStep.target);
    }
    stops.push(runSession());
  }
  const { executions, loops, merges } = state;
  return { executions, stops, loops, merges };
}
