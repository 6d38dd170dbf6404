import {
  type CodonConfig,
  type Condition,
  type ConditionStatus,
  isLoopConfig,
  isParallelConfig,
  type LoopConfig,
} from '@hankweave/types';
import { type ConditionFacts, evaluateCondition } from '../conditions/evaluate-condition.js';
import { DOLLAR_TOLERANCE, dollarLimits } from './budget.js';
import {
  DEFAULT_SESSION,
  type Execution,
  type Interpretation,
  type InterpreterInput,
  type LoopEnding,
  type LoopTermination,
  type PlateauVote,
  type Stop,
} from './outcomes.js';
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
 * codons all failed (ignored) → `failure` (its session cannot grow, so it would never overflow);
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
 */

interface Entry {
  codonId: string;
  codon: CodonConfig;
  loop?: { config: LoopConfig; iteration: number; index: number };
}

type Gate = { kind: 'run' } | { kind: 'loop-ended' } | { kind: 'stop'; stop: Stop };

const iterationOf = (loop: LoopConfig, iteration: number): Entry[] =>
  loop.codons.map((codon, index) => ({
    codonId: `${codon.id}#${iteration}`,
    codon,
    loop: { config: loop, iteration, index },
  }));

/** The codon executions, stops and loop endings a hank must produce for the given outcomes. */
export function interpret(input: InterpreterInput): Interpretation {
  const { hank } = input;
  const maxExecutions = input.maxExecutions ?? 10_000;
  const plan: Entry[] = hank.hank.flatMap((item) => {
    if (isParallelConfig(item)) throw new Error('parallel blocks: not yet interpreted');
    return isLoopConfig(item) ? iterationOf(item, 0) : [{ codonId: item.id, codon: item }];
  });
  const executions: Execution[] = [];
  /** The plan entry of each execution. */
  const entryOf: Entry[] = [];
  const stops: Stop[] = [];
  const loops: LoopEnding[] = [];
  const votes: Vote[] = [];
  const abandoned = new Set<number>();
  let thread: number[] = [];
  let session = 0;

  const onThread = (execution: number) => thread.includes(execution);
  const baseIdOf = (codonId: string) => codonId.split('#')[0] ?? codonId;

  const statusOf = (codonId: string): ConditionStatus => {
    const newest = thread.findLast(
      (index) => baseIdOf((executions[index] as Execution).codonId) === codonId,
    );
    return newest === undefined ? 'not-run' : (executions[newest] as Execution).status;
  };

  const holds = (condition: Condition, entry: Entry): boolean => {
    const world = input.world?.(entry.codonId);
    const facts: ConditionFacts = {
      statusOf,
      exists: (path) => world?.exists(path) ?? false,
      jsonFile: (path) => world?.jsonFile(path) ?? { absent: 'not found' },
      sentinelOutput: (id) => world?.sentinelOutput(id) ?? { absent: 'no output yet' },
    };
    return evaluateCondition(condition, facts).holds;
  };
  const planIndex = (codonId: string) => plan.findIndex((entry) => entry.codonId === codonId);

  const nextEntry = (): Entry | undefined => {
    const newest = thread.at(-1);
    if (newest === undefined) return plan[0];
    const at = planIndex((executions[newest] as Execution).codonId);
    return at < 0 ? undefined : plan[at + 1];
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
      executions.map((execution) => ({
        ...(execution.loopId !== undefined ? { loopId: execution.loopId } : {}),
        baseId: execution.codonId.split('#')[0] ?? execution.codonId,
        dollars: execution.cost,
      })),
    );

  const endLoop = (entry: Entry, reason: LoopTermination, from = planIndex(entry.codonId) + 1) => {
    const loopId = entry.loop?.config.id;
    for (let at = plan.length - 1; at >= from; at--) {
      if (plan[at]?.loop?.config.id === loopId) plan.splice(at, 1);
    }
    loops.push({ loopId: loopId ?? '', iteration: entry.loop?.iteration ?? 0, reason });
  };

  /** Makes sure `successors` follow the entry at `at`, in order, inserting the missing ones. */
  const ensureAfter = (at: number, successors: readonly Entry[]) => {
    let previous = at;
    for (const successor of successors) {
      const found = planIndex(successor.codonId);
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
        endLoop(entry, 'failure', plan.length);
        return { kind: 'stop', stop: 'budget-failed' };
      }
      endLoop(entry, 'failure', planIndex(entry.codonId));
      return { kind: 'loop-ended' };
    }
    return { kind: 'stop', stop: fail ? 'budget-failed' : 'budget-exceeded' };
  };

  const continuable = (entry: Entry): boolean => {
    const previous = plan[planIndex(entry.codonId) - 1];
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
    const record = (execution: Execution, vote?: PlateauVote): number => {
      executions.push(execution);
      entryOf.push(entry);
      const index = executions.length - 1;
      thread.push(index);
      recordVote(entry, index, vote);
      return index;
    };
    if (entry.codon.continuationMode === 'continue-previous' && !continuable(entry)) {
      return record({ ...base, status: 'failed', cost: 0, messages: 0, failure: 'no-session' });
    }
    const outcome = input.outcome(entry.codonId, attempt) ?? {};
    if (outcome.stoppedBy === 'skip') {
      return record({ ...base, status: 'skipped', cost: 0, messages: 1 });
    }
    if (outcome.stoppedBy === 'interrupt') {
      return record({ ...base, status: 'failed', cost: 0, messages: 1, failure: 'interrupted' });
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
          limits.onExceeded === 'complete'
            ? { ...spent, status: 'completed', budgetExceeded: true }
            : { ...spent, status: 'failed', failure: 'budget', budgetExceeded: true },
          outcome.vote,
        );
      }
      switch (played.end) {
        case 'context-exceeded':
          return record(
            contextLoop
              ? { ...spent, status: 'completed', contextExceeded: true }
              : { ...spent, status: 'failed', failure: 'context-exceeded', contextExceeded: true },
            outcome.vote,
          );
        case 'retriable-error':
        case 'fatal-error':
          return record({ ...spent, status: 'failed', failure: played.end });
        case 'ok':
          if (index + 1 >= sessions) return record({ ...spent, status: 'completed' }, outcome.vote);
      }
    }
  };

  /** True when every codon of the iteration failed (the newest execution of each, on the thread). */
  const iterationFailed = (loopId: string, iteration: number): boolean => {
    const newest = new Map<string, Execution>();
    for (const index of thread) {
      const of = entryOf[index]?.loop;
      if (of?.config.id === loopId && of.iteration === iteration) {
        newest.set((executions[index] as Execution).codonId, executions[index] as Execution);
      }
    }
    return [...newest.values()].every((execution) => execution.status === 'failed');
  };

  /** The plan after a loop codon that completed, was skipped or was ignored; true: the run fails. */
  const afterCodon = (entry: Entry, index: number): boolean => {
    const execution = executions[index] as Execution;
    const loop = entry.loop;
    if (!loop) return false;
    const { config, iteration } = loop;
    const at = planIndex(entry.codonId);
    if (execution.contextExceeded && config.terminateOn.type === 'contextExceeded') {
      endLoop(entry, 'context_exceeded');
      return false;
    }
    if (loop.index < config.codons.length - 1) {
      ensureAfter(at, iterationOf(config, iteration).slice(loop.index + 1, loop.index + 2));
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
    ensureAfter(at, iterationOf(config, iteration + 1));
    return false;
  };

  /** Records a codon skipped by a condition; returns its execution's index (on the thread). */
  const skipByCondition = (entry: Entry): number => {
    executions.push({
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
    entryOf.push(entry);
    const index = executions.length - 1;
    thread.push(index);
    recordVote(entry, index, undefined);
    return index;
  };

  /**
   * The conditions before an entry runs: `loop` when its loop's condition does not hold (the
   * loop is skipped), `codon` when its own does not, undefined when it may run.
   */
  const conditionGate = (entry: Entry): 'loop' | 'codon' | undefined => {
    const loop = entry.loop;
    if (loop?.config.when && loop.iteration === 0 && loop.index === 0) {
      if (!holds(loop.config.when, entry)) return 'loop';
    }
    if (entry.codon.when && !holds(entry.codon.when, entry)) return 'codon';
    return undefined;
  };

  /** Skips every codon of a loop's first iteration; the loop leaves the plan, never having run. */
  const skipLoop = (entry: Entry) => {
    const loop = entry.loop as NonNullable<Entry['loop']>;
    const first = iterationOf(loop.config, 0);
    ensureAfter(planIndex(entry.codonId), first.slice(1));
    for (const codon of first) {
      const at = planIndex(codon.codonId);
      skipByCondition(plan[at] as Entry);
    }
    const last = planIndex((first.at(-1) as Entry).codonId);
    for (let at = plan.length - 1; at > last; at--) {
      if (plan[at]?.loop?.config.id === loop.config.id) plan.splice(at, 1);
    }
  };

  const seriesStart = (entry: Entry): number => {
    const newest = executions.findLast((execution) => execution.codonId === entry.codonId);
    return newest?.failure === 'interrupted' ? newest.retryAttempt : 1;
  };

  const runSession = (): Stop => {
    let retry: { entry: Entry; retryAttempt: number } | undefined;
    for (;;) {
      if (executions.length >= maxExecutions) {
        throw new Error(`The hank did not end within ${maxExecutions} executions`);
      }
      const entry = retry?.entry ?? nextEntry();
      if (!entry) return 'completed';
      if (!retry) {
        const skip = conditionGate(entry);
        if (skip === 'loop') {
          skipLoop(entry);
          continue;
        }
        if (skip === 'codon') {
          if (afterCodon(entry, skipByCondition(entry))) return 'failed';
          continue;
        }
        const gate = budgetGate(entry);
        if (gate.kind === 'stop') return gate.stop;
        if (gate.kind === 'loop-ended') continue;
      }
      const retryAttempt = retry?.retryAttempt ?? seriesStart(entry);
      retry = undefined;
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
            retry = { entry, retryAttempt: retryAttempt + 1 };
            continue;
          }
          return 'failed';
        }
      }
      if (afterCodon(entry, index)) return 'failed';
    }
  };

  /** Cuts the thread after the newest execution the plan moved past. */
  const cutAtResumePoint = () => {
    const movedPast = (index: number) => {
      const execution = executions[index] as Execution;
      return (
        !abandoned.has(index) &&
        (execution.status !== 'failed' || execution.failureIgnored === true)
      );
    };
    const keep = thread.findLastIndex(movedPast);
    thread = thread.slice(0, keep + 1);
  };

  const rollBack = (target: number) => {
    const completed = thread.filter((index) => executions[index]?.status === 'completed');
    const codonIds = [
      ...new Set(completed.map((index) => (executions[index] as Execution).codonId)),
    ];
    if (codonIds.length === 0) return;
    const codonId = codonIds[target % codonIds.length];
    const newest = completed.findLast((index) => executions[index]?.codonId === codonId);
    thread = thread.slice(0, thread.indexOf(newest as number) + 1);
  };

  for (const step of [undefined, ...(input.steps ?? [])]) {
    if (step !== undefined) {
      session++;
      cutAtResumePoint();
      if (step.kind === 'rollback') rollBack(step.target);
    }
    stops.push(runSession());
  }
  return { executions, stops, loops };
}
