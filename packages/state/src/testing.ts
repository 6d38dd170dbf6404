// @hankweave/state/testing: the conformance suite, a fault-injecting fs and transition builders.

export {
  createFaultyFs,
  type Fault,
  type FaultyFs,
  type FaultyFsOptions,
  FS_OPERATIONS,
  type FsCall,
  type FsOperation,
} from './testing/faulty-fs.js';
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
