// ./testing entry: test doubles for code that drives an AgentHarness (the runtime's tests), and
// the conformance suite every adapter runs against its real agent.

export {
  buildAgentLog,
  type FakeAgentScenario,
  type FakeTurn,
} from './testing/build-agent-log.js';
export type {
  ConformanceBlock,
  ConformanceFailure,
  ConformanceScript,
  ConformanceTurn,
} from './testing/conformance/conformance-script.js';
export type {
  ConformanceRequest,
  ConformanceRig,
  HarnessConformanceOptions,
  HarnessConformanceSetup,
  ServedScript,
} from './testing/conformance/conformance-setup.js';
export { describeHarnessConformance } from './testing/conformance/harness-conformance.js';
export {
  type FakeAgentScript,
  FakeHarness,
  type FakeHarnessOptions,
} from './testing/fake-harness.js';
