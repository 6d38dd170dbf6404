// ./testing entry: the semantics kit (issue 30), which drives the real runtime with the outcomes
// of the reference interpreter's model (@hankweave/hank) and observes what it executed; and the
// adversarial containment suite every agent adapter runs (issue 31), with the tools it checks with;
// and a started runtime on the FakeHarness, the world of the WebSocket server's tests.

export type {
  ContainmentContext,
  ContainmentHarness,
  ContainmentScript,
  ContainmentTurn,
  ServedModel,
} from './testing/containment/containment-setup.js';
export {
  type AttackRun,
  ContainmentWorld,
  withWorld,
} from './testing/containment/containment-world.js';
export { describeContainment } from './testing/containment/describe-containment.js';
export { processesWith } from './testing/containment/surviving-processes.js';
export { type DigestEntry, treeDigest } from './testing/containment/tree-digest.js';
export { type FakeWorld, lettersHank, startFakeWorld } from './testing/fake-world.js';
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
