// ./testing entry: test doubles for code that drives an AgentHarness (the runtime's tests).

export {
  buildAgentLog,
  type FakeAgentScenario,
  type FakeTurn,
} from './testing/build-agent-log.js';
export {
  type FakeAgentScript,
  FakeHarness,
  type FakeHarnessOptions,
} from './testing/fake-harness.js';
