import type { Execution, FailureKind, LoopEnding, Stop } from '@hankweave/hank';
import { endedByCrash } from '@hankweave/state';
import {
  type CodonExecution,
  type HankweaveEvent,
  type HankweaveState,
  isInterruption,
  isTerminalCodonStatus,
} from '@hankweave/types';
import type { RuntimeExit } from '../../runtime/exit-code.js';

/** What the comparison with the interpreter looks at in one codon execution. */
export type ObservedExecution = Pick<Execution, 'codonId' | 'status' | 'failure' | 'skippedBy'> & {
  cost: number;
  contextExceeded?: true;
  budgetExceeded?: true;
};

/** The fields of an interpreter execution that the runtime's records can be compared on. */
export function comparable(execution: Execution): ObservedExecution {
  return {
    codonId: execution.codonId,
    status: execution.status,
    ...(execution.failure ? { failure: execution.failure } : {}),
    ...(execution.skippedBy ? { skippedBy: execution.skippedBy } : {}),
    cost: roundCost(execution.cost),
    ...(execution.contextExceeded ? { contextExceeded: true } : {}),
    ...(execution.budgetExceeded ? { budgetExceeded: true } : {}),
  };
}

const roundCost = (dollars: number) => Math.round(dollars * 1e9) / 1e9;

function failureOf(record: CodonExecution & Record<string, unknown>): FailureKind | undefined {
  if (record.status !== 'failed') return undefined;
  const reason = record.failureReason;
  const message = reason.message ?? '';
  if (record.budgetExceeded) return 'budget';
  if (record.contextExceeded === true) return 'context-exceeded';
  if (isInterruption(reason)) return 'interrupted';
  if (/requires continuation from previous codon/.test(message)) return 'no-session';
  return reason.retriable ? 'retriable-error' : 'fatal-error';
}

/**
 * Every codon execution that reached a final status of its own, in the order the runs made them
 * (an attempt a kill cut short is not an execution: crash detection marks it failed).
 */
export function observeExecutions(state: HankweaveState): ObservedExecution[] {
  const executions: ObservedExecution[] = [];
  for (const run of [...state.runs].reverse()) {
    for (const codon of run.codons) {
      if (!isTerminalCodonStatus(codon.status) || endedByCrash(codon)) continue;
      const record = codon as CodonExecution & Record<string, unknown>;
      const cost =
        record.status === 'completed'
          ? (record.finalCost as number)
          : ((record.partialCost as number | undefined) ?? 0);
      const failure = failureOf(record);
      executions.push({
        codonId: record.codonId,
        status: record.status as ObservedExecution['status'],
        ...(failure ? { failure } : {}),
        ...(record.skippedBy === 'condition' ? { skippedBy: 'condition' as const } : {}),
        cost: roundCost(cost),
        ...(record.contextExceeded === true ? { contextExceeded: true } : {}),
        ...(record.budgetExceeded ? { budgetExceeded: true } : {}),
      });
    }
  }
  return executions;
}

/** How a process run stopped, from its exit. */
export function stopOf(exit: RuntimeExit): Stop | `unexpected: ${string}` {
  switch (exit.reason) {
    case 'all codons completed':
      return 'completed';
    case 'codon failure':
      return 'failed';
    case 'SIGINT':
      return 'interrupted';
    case 'budget exceeded':
      return 'budget-exceeded';
    case 'budget failure':
      return 'budget-failed';
    default:
      return `unexpected: ${exit.reason}`;
  }
}

/** The loops' endings the journal announced (`loop.iteration.completed` with `isFinal`). */
export function observeLoopEndings(events: readonly HankweaveEvent[]): LoopEnding[] {
  return events.flatMap((event) =>
    event.type === 'loop.iteration.completed' && event.data.isFinal
      ? [
          {
            loopId: event.data.loopId,
            iteration: event.data.iteration,
            reason: (event.data.terminationReason ?? 'unknown') as LoopEnding['reason'],
          },
        ]
      : [],
  );
}
