import type { Condition, ConditionStatus } from '@hankweave/types';
import { type ConditionFacts, evaluateCondition } from '../conditions/evaluate-condition.js';
import { record } from './attempt.js';
import { ensureAfter } from './loops.js';
import type { Execution } from './outcomes.js';
import { type Entry, iterationOf } from './plan.js';
import { planIndex, planOf, type RunState } from './run-state.js';

// `when` conditions in the reference interpreter: the facts a condition reads, and the skips it
// causes. The rules are in interpret.ts's header.

/** A codon's status as `entry` sees it: never through a sibling branch of its own block. */
const statusFor =
  (state: RunState, entry: Entry | undefined) =>
  (codonId: string): ConditionStatus => {
    const { executions, entryOf } = state;
    const newest = state.thread.findLast((index) => {
      const of = entryOf[index] as Entry;
      if (of.codon.id !== codonId) return false;
      return !entry?.block || of.block?.config !== entry.block.config || of.lane === entry.lane;
    });
    return newest === undefined ? 'not-run' : (executions[newest] as Execution).status;
  };

/** Whether `condition` holds for `entry` (undefined: as the top level sees the thread). */
export const holds = (
  state: RunState,
  condition: Condition,
  entry: Entry | undefined,
  worldId: string,
): boolean => {
  const world = state.input.world?.(worldId);
  const facts: ConditionFacts = {
    statusOf: statusFor(state, entry),
    exists: (path) => world?.exists(path) ?? false,
    jsonFile: (path) => world?.jsonFile(path) ?? { absent: 'not found' },
    sentinelOutput: (id) => world?.sentinelOutput(id) ?? { absent: 'no output yet' },
  };
  return evaluateCondition(condition, facts).holds;
};

/** Records a codon skipped by a condition; returns its execution's index (on the thread). */
export const skipByCondition = (state: RunState, entry: Entry): number =>
  record(state, entry, {
    codonId: entry.codonId,
    ...(entry.loop ? { loopId: entry.loop.config.id } : {}),
    attempt: state.executions.filter((execution) => execution.codonId === entry.codonId).length,
    session: state.session,
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
export const conditionGate = (state: RunState, entry: Entry): 'loop' | 'codon' | undefined => {
  const loop = entry.loop;
  if (loop?.config.when && loop.iteration === 0 && loop.index === 0) {
    if (!holds(state, loop.config.when, entry, entry.codonId)) return 'loop';
  }
  if (entry.codon.when && !holds(state, entry.codon.when, entry, entry.codonId)) return 'codon';
  return undefined;
};

/** Skips every codon of a loop's first iteration; the loop leaves the plan, never having run. */
export const skipLoop = (state: RunState, entry: Entry) => {
  const loop = entry.loop as NonNullable<Entry['loop']>;
  const plan = planOf(state, entry.codonId);
  const first = iterationOf(loop.config, 0, entry.lane, entry.block);
  ensureAfter(plan, planIndex(state, entry.codonId), first.slice(1));
  for (const codon of first) skipByCondition(state, plan[planIndex(state, codon.codonId)] as Entry);
  const last = planIndex(state, (first.at(-1) as Entry).codonId);
  for (let at = plan.length - 1; at > last; at--) {
    if (plan[at]?.loop?.config.id === loop.config.id) plan.splice(at, 1);
  }
};
