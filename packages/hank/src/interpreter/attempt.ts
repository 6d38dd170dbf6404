import { DOLLAR_TOLERANCE, dollarLimits } from './budget.js';
import { recordVote } from './loops.js';
import { DEFAULT_SESSION, type Execution, type PlateauVote } from './outcomes.js';
import { childOf, type Entry } from './plan.js';
import { baseIdOf, planIndex, planOf, type RunState } from './run-state.js';

// One codon attempt in the reference interpreter: what its outcome plays out to, against the
// dollar limits of every budget container around it. The rules are in interpret.ts's header.

/** Records an execution of `entry` on the thread; returns its index. */
export const record = (
  state: RunState,
  entry: Entry,
  execution: Execution,
  vote?: PlateauVote,
): number => {
  const { executions } = state;
  const branchId = entry.block?.branchId;
  executions.push(
    entry.block && branchId !== undefined
      ? { ...execution, branch: { blockId: entry.block.config.id, branchId } }
      : execution,
  );
  state.entryOf.push(entry);
  const index = executions.length - 1;
  state.thread.push(index);
  recordVote(state, entry, index, vote);
  return index;
};

/** The dollar limits of `entry`, on the spend of every execution so far (also those cut off). */
export const limitsOf = (state: RunState, entry: Entry) => {
  const { input, executions, entryOf } = state;
  return dollarLimits(
    input.hank,
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
};

/** Whether a `continue-previous` codon has a session to continue: its lane's previous entry's. */
const continuable = (state: RunState, entry: Entry): boolean => {
  const previous = planOf(state, entry.codonId)[planIndex(state, entry.codonId) - 1];
  if (!previous) return false;
  return state.thread.some((index) => {
    const execution = state.executions[index] as Execution;
    return (
      execution.codonId === previous.codonId &&
      (execution.status === 'completed' ||
        (execution.status === 'skipped' && execution.messages > 0))
    );
  });
};

/** Runs one attempt; returns its execution's index (already on the thread). */
export const runAttempt = (state: RunState, entry: Entry, retryAttempt: number): number => {
  const { input, executions } = state;
  const attempt = executions.filter((execution) => execution.codonId === entry.codonId).length;
  const base = {
    codonId: entry.codonId,
    ...(entry.loop ? { loopId: entry.loop.config.id } : {}),
    attempt,
    session: state.session,
    retryAttempt,
  };
  if (entry.codon.continuationMode === 'continue-previous' && !continuable(state, entry)) {
    return record(state, entry, {
      ...base,
      status: 'failed',
      cost: 0,
      messages: 0,
      failure: 'no-session',
    });
  }
  const outcome = input.outcome(entry.codonId, attempt) ?? {};
  if (outcome.stoppedBy === 'skip') {
    return record(state, entry, { ...base, status: 'skipped', cost: 0, messages: 1 });
  }
  if (outcome.stoppedBy === 'interrupt') {
    return record(state, entry, {
      ...base,
      status: 'failed',
      cost: 0,
      messages: 1,
      failure: 'interrupted',
    });
  }
  const limits = limitsOf(state, entry);
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
        state,
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
          state,
          entry,
          contextLoop
            ? { ...spent, status: 'completed', contextExceeded: true }
            : { ...spent, status: 'failed', failure: 'context-exceeded', contextExceeded: true },
          outcome.vote,
        );
      case 'retriable-error':
      case 'fatal-error':
        return record(state, entry, { ...spent, status: 'failed', failure: played.end });
      case 'ok':
        if (index + 1 >= sessions)
          return record(state, entry, { ...spent, status: 'completed' }, outcome.vote);
    }
  }
};
