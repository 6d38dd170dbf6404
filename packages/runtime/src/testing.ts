// ./testing entry: the semantics kit. It drives the real runtime with the outcomes of the
// reference interpreter's model (@hankweave/hank) and observes what it executed, so tests (and a
// child process killed mid-run) can compare the runtime with the interpreter.

export {
  comparable,
  type ObservedExecution,
  observeExecutions,
  observeLoopEndings,
  stopOf,
} from './testing/semantics/observe.js';
export {
  type CostUnit,
  DEFAULT_COST_UNIT,
  finishedExecutions,
  type OutcomeAgentOptions,
  outcomeAgent,
} from './testing/semantics/outcome-agent.js';
export { type OutcomeTable, tableOutcome } from './testing/semantics/outcome-table.js';
export {
  caseLayout,
  caseRuntime,
  type PlayedCase,
  playCase,
  rollBack,
  rollbackCodon,
  runOnce,
  type SemanticsCase,
} from './testing/semantics/play-case.js';
