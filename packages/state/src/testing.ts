// @hankweave/state/testing: the conformance suite and transition builders. The fault-injecting
// fs it uses is durable-io's: `createFaultyFs` from `@hankweave/durable-io/testing`.

export type {
  CaseContext,
  RecordingLogger,
  StateStoreCapabilities,
  StateStoreHarness,
} from './testing/harness.js';
export { INVALID_TRANSITIONS, type InvalidTransitionCase } from './testing/invalid-transitions.js';
export { describeStateStoreConformance } from './testing/state-store-conformance.js';
export {
  codonLifecycle,
  fixedTime,
  METADATA_FOR,
  makeTransition,
  tokens,
} from './testing/transitions.js';
