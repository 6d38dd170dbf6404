import type { Condition, ConditionStatus } from '@hankweave/types';
import { type ConditionFacts, evaluateCondition } from '../conditions/evaluate-condition.js';
import { DOLLAR_TOLERANCE, dollarLimits } from './budget.js';
import {
  DEFAULT_SESSION,
  type Execution,
  type Interpretation,
  type InterpreterInput,
  type LoopEnding,
  type LoopTermination,
  type Merge,
  type PlateauVote,
  type Stop,
} from './outcomes.js';
import { type BlockHost, readyLanes, runBlock } from './parallel.js';
import {
  buildPlans,
  childOf,
  type Entry,
  iterationOf,
  type Mark,
  type PlanEntry,
  type Retry,
  TOP,
} from './plan.js';
import { plateauVerdict, type Vote } from './plateau-verdict.js';

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
 */

type Gate =
  | { kind: 'run' }
  | { kind: 'loop-ended' }
  | { kind: 'branch-ended' }
  | { kind: 'stop'; stop: Stop };

/** The codon executions, stops and loop endings a hank must produce for the given outcomes. */
export function interpret(input: InterpreterInput): Interpretation {
  const { hank } = input;
  const maxExecutions = input.maxExecutions ?? 10_000;
  const { plans, laneOfCodon } = buildPlans(hank);
  const executions: Execution[] = [];
  /** The plan entry of each execution. */
  const entryOf: Entry[] = [];
  const stops: Stop[] = [];
  const loops: LoopEnding[] = [];
  const merges: Merge[] = [];
  const votes: Vote[] = [];
  const abandoned = new Set<number>();
  let thread: number[] = [];
  /** Blocks moved past (merged, or skipped by their condition), on the thread. */
  const marks: Mark[] = [];
  /** Branches a spent block budget ended, on the thread. */
  const ended: Mark[] = [];
  const retries = new Map<string, Retry>();
  let session = 0;

  const onThread = (execution: number) => thread.includes(execution);
  const baseIdOf = (codonId: string) => codonId.split('#')[0] ?? codonId;
  const laneOf = (codonId: string) => laneOfCodon.get(baseIdOf(codonId)) ?? TOP;
  const planOf = (codonId: string): PlanEntry[] => plans.get(laneOf(codonId)) ?? [];
  const planIndex = (codonId: string) =>
    planOf(codonId).findIndex((entry) => entry.codonId === codonId);
  const laneOfExecution = (index: number) => (entryOf[index] as Entry).lane;

  /** A codon's status as `entry` sees it: never through a sibling branch of its own block. */
  const statusFor =
    (entry: Entry | undefined) =>
    (codonId: string): ConditionStatus => {
      const newest = thread.findLast((index) => {
        const of = entryOf[index] as Entry;
        if (of.codon.id !== codonId) return false;
        return !entry?.block || of.block?.config !== entry.block.config || of.lane === entry.lane;
      });
      return newest === undefined ? 'not-run' : (executions[newest] as Execution).status;
    };

  const holds = (condition: Condition, entry: Entry | undefined, worldId: string): boolean => {
    const world = input.world?.(worldId);
    const facts: ConditionFacts = {
      statusOf: statusFor(entry),
      exists: (path) => world?.exists(path) ?? false,
      jsonFile: (path) => world?.jsonFile(path) ?? { absent: 'not found' },
      sentinelOutput: (id) => world?.sentinelOutput(id) ?? { absent: 'no output yet' },
    };
    return evaluateCondition(condition, facts).holds;
  };

  const nextEntry = (lane: string): PlanEntry | undefined => {
    const plan = plans.get(lane) ?? [];
    const newest = thread.findLast((index) => laneOfExecution(index) === lane);
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

  const limitsOf = (entry: Entry) =>
    dollarLimits(
      hank,
      {
        ...(input.maxCost !== undefined ? { maxCost: input.maxCost } : {}),
        ...(input.runtimeMaxDollars !== undefined
          ? { runtimeMaxDollars: input.runtimeMaxDollars }
          : {}),
      },
      entry.codon,
      entry.loop?.config,
      executions.map((execution, index) => {
        const of = entryOf[index] as Entry;
        return {
          ...(execution.loopId !== undefined ? { loopId: execution.loopId } : {}),
          ...(of.block ? { block: { blockId: of.block.config.id, child: childOf(of) } } : {}),
          baseId: baseIdOf(execution.codonId),
          dollars: execution.cost,
        };
      }),
      entry.block ? { config: entry.block.config, child: childOf(entry) } : undefined,
    );

  const endLoop = (entry: Entry, reason: LoopTermination, from = planIndex(entry.codonId) + 1) => {
    const plan = planOf(entry.codonId);
    const loopId = entry.loop?.config.id;
    for (let at = plan.length - 1; at >= from; at--) {
      if (plan[at]?.loop?.config.id === loopId) plan.splice(at, 1);
    }
    loops.push({ loopId: loopId ?? '', iteration: entry.loop?.iteration ?? 0, reason });
  };

  /** Makes sure `successors` follow the entry at `at`, in order, inserting the missing ones. */
  const ensureAfter = (plan: PlanEntry[], at: number, successors: readonly Entry[]) => {
    let previous = at;
    for (const successor of successors) {
      const found = plan.findIndex((entry) => entry.codonId === successor.codonId);
      if (found >= 0) previous = found;
      else plan.splice(++previous, 0, successor);
    }
  };

  const budgetGate = (entry: Entry): Gate => {
    const exhausted = limitsOf(entry).exhausted;
    if (!exhausted) return { kind: 'run' };
    const fail = exhausted.onExceeded === 'fail';
    if (exhausted.scope === 'loop' && entry.loop) {
      // With `fail` the run stops at the loop, which stays in the plan: a resume meets the same
      // spent budget again instead of going on after the loop as if it had ended well.
      if (fail) {
        endLoop(entry, 'failure', planOf(entry.codonId).length);
        return { kind: 'stop', stop: 'budget-failed' };
      }
      endLoop(entry, 'failure', planIndex(entry.codonId));
      return { kind: 'loop-ended' };
    }
    if (exhausted.scope === 'block' && entry.block) {
      if (fail) return { kind: 'stop', stop: 'budget-failed' };
      // Every unfinished branch ends where it is; a resolver does not start.
      if (entry.block.branchId !== undefined) {
        for (const lane of readyLanes(host, entry.block.config)) {
          ended.push({ id: lane, at: executions.length });
        }
      }
      return { kind: 'branch-ended' };
    }
    return { kind: 'stop', stop: fail ? 'budget-failed' : 'budget-exceeded' };
  };

  const continuable = (entry: Entry): boolean => {
    const previous = planOf(entry.codonId)[planIndex(entry.codonId) - 1];
    if (!previous) return false;
    return thread.some((index) => {
      const execution = executions[index] as Execution;
      return (
        execution.codonId === previous.codonId &&
        (execution.status === 'completed' ||
          (execution.status === 'skipped' && execution.messages > 0))
      );
    });
  };

  const visibleVotes = (loopId: string) =>
    votes.filter((vote) => vote.loopId === loopId && onThread(vote.execution));

  const recordVote = (entry: Entry, execution: number, vote: PlateauVote | undefined) => {
    const loop = entry.loop;
    if (loop?.config.terminateOn.type !== 'plateau') return;
    const reported = executions[execution]?.status === 'completed' ? vote : undefined;
    const iteration = loop.iteration + 1;
    const last = loop.index === loop.config.codons.length - 1;
    const decided = visibleVotes(loop.config.id).some(
      (earlier) => earlier.iteration === iteration && earlier.decision !== 'missing',
    );
    if (reported === undefined && (!last || decided)) return;
    votes.push({ loopId: loop.config.id, iteration, decision: reported ?? 'missing', execution });
  };

  /** Records an execution of `entry` on the thread; returns its index. */
  const record = (entry: Entry, execution: Execution, vote?: PlateauVote): number => {
    const branchId = entry.block?.branchId;
    executions.push(
      entry.block && branchId !== undefined
        ? { ...execution, branch: { blockId: entry.block.config.id, branchId } }
        : execution,
    );
    entryOf.push(entry);
    const index = executions.length - 1;
    thread.push(index);
    recordVote(entry, index, vote);
    return index;
  };

  /** Runs one attempt; returns its execution's index (already on the thread). */
  const runAttempt = (entry: Entry, retryAttempt: number): number => {
    const attempt = executions.filter((execution) => execution.codonId === entry.codonId).length;
    const base = {
      codonId: entry.codonId,
      ...(entry.loop ? { loopId: entry.loop.config.id } : {}),
      attempt,
      session,
      retryAttempt,
    };
    if (entry.codon.continuationMode === 'continue-previous' && !continuable(entry)) {
      return record(entry, {
        ...base,
        status: 'failed',
        cost: 0,
        messages: 0,
        failure: 'no-session',
      });
    }
    const outcome = input.outcome(entry.codonId, attempt) ?? {};
    if (outcome.stoppedBy === 'skip') {
      return record(entry, { ...base, status: 'skipped', cost: 0, messages: 1 });
    }
    if (outcome.stoppedBy === 'interrupt') {
      return record(entry, {
        ...base,
        status: 'failed',
        cost: 0,
        messages: 1,
        failure: 'interrupted',
      });
    }
    const limits = limitsOf(entry);
    const contextLoop = entry.loop?.config.terminateOn.type === 'contextExceeded';
    const sessions = entry.codon.exhaustWithPrompt ? 1 + entry.codon.maxExtensions : 1;
    let cost = 0;
    for (let index = 0; ; index++) {
      const played = outcome.sessions?.[index] ?? DEFAULT_SESSION;
      cost += played.cost;
      const spent = { ...base, cost, messages: index + 1 };
      // Spending the limit itself is not passing it: float noise is no overspend (DOLLAR_TOLERANCE).
      if (limits.maxDollars !== undefined && cost > limits.maxDollars + DOLLAR_TOLERANCE) {
        return record(
          entry,
          limits.onExceeded === 'complete'
            ? { ...spent, status: 'completed', budgetExceeded: true }
            : { ...spent, status: 'failed', failure: 'budget', budgetExceeded: true },
          outcome.vote,
        );
      }
      switch (played.end) {
        case 'context-exceeded':
          return record(
            entry,
            contextLoop
              ? { ...spent, status: 'completed', contextExceeded: true }
              : { ...spent, status: 'failed', failure: 'context-exceeded', contextExceeded: true },
            outcome.vote,
          );
        case 'retriable-error':
        case 'fatal-error':
          return record(entry, { ...spent, status: 'failed', failure: played.end });
        case 'ok':
          if (index + 1 >= sessions)
            return record(entry, { ...spent, status: 'completed' }, outcome.vote);
      }
    }
  };

  /**
   * True when no codon of the iteration did any work: the newest execution of each, on the
   * thread, failed or was skipped by a condition.
   */
  const iterationFailed = (loopId: string, iteration: number): boolean => {
    const newest = new Map<string, Execution>();
    for (const index of thread) {
      const of = entryOf[index]?.loop;
      if (of?.config.id === loopId && of.iteration === iteration) {
        newest.set((executions[index] as Execution).codonId, executions[index] as Execution);
      }
    }
    return [...newest.values()].every(
      (execution) => execution.status === 'failed' || execution.skippedBy === 'condition',
    );
  };

  /** The plan after a loop codon that completed, was skipped or was ignored; true: the run fails. */
  const afterCodon = (entry: Entry, index: number): boolean => {
    const execution = executions[index] as Execution;
    const loop = entry.loop;
    if (!loop) return false;
    const { config, iteration } = loop;
    const plan = planOf(entry.codonId);
    const at = planIndex(entry.codonId);
    const iterationEntries = (n: number) => iterationOf(config, n, entry.lane, entry.block);
    if (execution.contextExceeded && config.terminateOn.type === 'contextExceeded') {
      endLoop(entry, 'context_exceeded');
      return false;
    }
    if (loop.index < config.codons.length - 1) {
      ensureAfter(plan, at, iterationEntries(iteration).slice(loop.index + 1, loop.index + 2));
      return false;
    }
    if (execution.budgetExceeded) {
      endLoop(entry, 'failure');
      return false;
    }
    const terminate = config.terminateOn;
    if (terminate.type === 'contextExceeded' && iterationFailed(config.id, iteration)) {
      endLoop(entry, 'failure');
      return false;
    }
    if (terminate.type === 'iterationLimit' && iteration >= terminate.limit - 1) {
      endLoop(entry, 'iteration_limit');
      return false;
    }
    if (terminate.type === 'plateau') {
      const verdict = plateauVerdict(visibleVotes(config.id), terminate, iteration + 1);
      if (verdict === 'error') {
        endLoop(entry, 'failure');
        for (const earlier of thread) {
          const of = entryOf[earlier]?.loop;
          if (of?.config.id === config.id && of.iteration === iteration) abandoned.add(earlier);
        }
        return true;
      }
      if (verdict) {
        endLoop(entry, verdict);
        return false;
      }
    }
    ensureAfter(plan, at, iterationEntries(iteration + 1));
    return false;
  };

  /** Records a codon skipped by a condition; returns its execution's index (on the thread). */
  const skipByCondition = (entry: Entry): number =>
    record(entry, {
      codonId: entry.codonId,
      ...(entry.loop ? { loopId: entry.loop.config.id } : {}),
      attempt: executions.filter((execution) => execution.codonId === entry.codonId).length,
      session,
      retryAttempt: 1,
      status: 'skipped',
      cost: 0,
      messages: 0,
      skippedBy: 'condition',
    });

  /**
   * The conditions before an entry runs: `loop` when its loop's condition does not hold (the
   * loop is skipped), `codon` when its own does not, undefined when it may run.
   */
  const conditionGate = (entry: Entry): 'loop' | 'codon' | undefined => {
    const loop = entry.loop;
    if (loop?.config.when && loop.iteration === 0 && loop.index === 0) {
      if (!holds(loop.config.when, entry, entry.codonId)) return 'loop';
    }
    if (entry.codon.when && !holds(entry.codon.when, entry, entry.codonId)) return 'codon';
    return undefined;
  };

  /** Skips every codon of a loop's first iteration; the loop leaves the plan, never having run. */
  const skipLoop = (entry: Entry) => {
    const loop = entry.loop as NonNullable<Entry['loop']>;
    const plan = planOf(entry.codonId);
    const first = iterationOf(loop.config, 0, entry.lane, entry.block);
    ensureAfter(plan, planIndex(entry.codonId), first.slice(1));
    for (const codon of first) skipByCondition(plan[planIndex(codon.codonId)] as Entry);
    const last = planIndex((first.at(-1) as Entry).codonId);
    for (let at = plan.length - 1; at > last; at--) {
      if (plan[at]?.loop?.config.id === loop.config.id) plan.splice(at, 1);
    }
  };

  const seriesStart = (entry: Entry): number => {
    const newest = executions.findLast((execution) => execution.codonId === entry.codonId);
    return newest?.failure === 'interrupted' ? newest.retryAttempt : 1;
  };

  const guard = () => {
    if (executions.length >= maxExecutions) {
      throw new Error(`The hank did not end within ${maxExecutions} executions`);
    }
  };

  /**
   * One step of a lane: the codon's conditions and budget gate (not before an automatic retry),
   * then one attempt and what its failure policy says. A stop, or undefined to go on.
   */
  const step = (entry: Entry): Stop | undefined => {
    const retry = retries.get(entry.lane);
    if (!retry) {
      const skip = conditionGate(entry);
      if (skip === 'loop') {
        skipLoop(entry);
        return undefined;
      }
      if (skip === 'codon') return afterCodon(entry, skipByCondition(entry)) ? 'failed' : undefined;
      const gate = budgetGate(entry);
      if (gate.kind === 'stop') return gate.stop;
      if (gate.kind !== 'run') return undefined;
    }
    const retryAttempt = retry?.retryAttempt ?? seriesStart(entry);
    retries.delete(entry.lane);
    const index = runAttempt(entry, retryAttempt);
    const execution = executions[index] as Execution;
    if (execution.failure === 'interrupted') return 'interrupted';
    if (execution.status === 'failed') {
      const policy = entry.codon.onFailure;
      if (policy === 'ignore') execution.failureIgnored = true;
      else {
        const retriable = execution.failure === 'retriable-error';
        const maxAttempts = entry.codon.retryConfig?.maxAttempts ?? 3;
        if (policy === 'retry' && retriable && retryAttempt < maxAttempts) {
          retries.set(entry.lane, { entry, retryAttempt: retryAttempt + 1 });
          return undefined;
        }
        return 'failed';
      }
    }
    return afterCodon(entry, index) ? 'failed' : undefined;
  };

  const host: BlockHost = {
    input,
    plans,
    executions,
    merges,
    marks,
    ended,
    retries,
    session: () => session,
    started: (block) => thread.some((index) => entryOf[index]?.block?.config === block),
    holds: (condition, worldId) => holds(condition, undefined, worldId),
    nextEntry,
    step,
    skipByCondition,
    guard,
  };

  const runSession = (): Stop => {
    retries.clear();
    for (;;) {
      guard();
      const entry = retries.get(TOP)?.entry ?? nextEntry(TOP);
      if (!entry) return 'completed';
      const stop = 'parallel' in entry ? runBlock(host, entry.parallel) : step(entry);
      if (stop) return stop;
    }
  };

  /** Cuts each lane's thread after its newest execution the plan moved past. */
  const cutAtResumePoint = () => {
    const movedPast = (index: number) => {
      const execution = executions[index] as Execution;
      return (
        !abandoned.has(index) &&
        (execution.status !== 'failed' || execution.failureIgnored === true)
      );
    };
    const keep = new Map<string, number>();
    for (const index of thread) if (movedPast(index)) keep.set(laneOfExecution(index), index);
    thread = thread.filter((index) => index <= (keep.get(laneOfExecution(index)) ?? -1));
  };

  const rollBack = (target: number) => {
    const completed = thread.filter((index) => executions[index]?.status === 'completed');
    const codonIds = [
      ...new Set(completed.map((index) => (executions[index] as Execution).codonId)),
    ];
    if (codonIds.length === 0) return;
    const codonId = codonIds[target % codonIds.length];
    const newest = completed.findLast((index) => executions[index]?.codonId === codonId) as number;
    const of = entryOf[newest] as Entry;
    // Into a branch: that branch is cut there and the block merges again; its sibling branches
    // keep what they did. After a resolver: the merge it resolved stands.
    const sibling = (lane: string) =>
      of.block?.branchId !== undefined &&
      lane !== of.lane &&
      lane.startsWith(`${of.block.config.id}/`);
    const resolved = of.block !== undefined && of.block.branchId === undefined;
    thread = thread.filter((index) => index <= newest || sibling(laneOfExecution(index)));
    const keep = (list: Mark[], kept: (mark: Mark) => boolean) =>
      list.splice(0, list.length, ...list.filter(kept));
    keep(marks, (mark) => mark.at <= newest || (resolved && mark.at === newest + 1));
    keep(ended, (mark) => mark.at <= newest || sibling(mark.id));
  };

  for (const userStep of [undefined, ...(input.steps ?? [])]) {
    if (userStep !== undefined) {
      session++;
      cutAtResumePoint();
      if (userStep.kind === 'rollback') rollBack(userStep.target);
    }
    stops.push(runSession());
  }
  return { executions, stops, loops, merges };
}
