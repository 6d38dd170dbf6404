// Public surface of @hankweave/state: named exports only.

export {
  type FindCrashedRunsOptions,
  findCrashedRuns,
  runCrashedTransition,
} from './crash-detection.js';
export { STATE_ERROR_CODES, StateError, type StateErrorCode } from './errors.js';
export {
  type AcquireRuntimeLockOptions,
  acquireRuntimeLock,
  LOCK_HEARTBEAT_MS,
  LOCK_STALE_AFTER_MS,
  readRuntimeLock,
} from './lock/acquire-runtime-lock.js';
export { isPidAlive, isSameProcessAlive, processStartTime } from './lock/pid.js';
export {
  type PreviousLockHolder,
  type RuntimeLockFields,
  RuntimeLockHandle,
} from './lock/runtime-lock-handle.js';
export type {
  CheckpointExists,
  IsPidAlive,
  StateIoOptions,
  StateLogger,
} from './options.js';
export { type StatePaths, statePaths } from './paths.js';
export type {
  RecoveryReport,
  RejectedStateFile,
  StateSource,
} from './persistence/load-state.js';
export type { WriterStats } from './persistence/state-writer.js';
export { codonCost, runCost, totalCost } from './read/costs.js';
export {
  type ExecutionThread,
  executionThread,
  type SiblingRecords,
  siblingRecords,
  type ThreadCodon,
} from './read/execution-thread.js';
export {
  type CodonFailure,
  currentRun,
  failedCodons,
  findRun,
  lastSuccessfulCheckpoint,
  latestCodonRecord,
  latestRun,
  runningCodon,
} from './read/inspect.js';
export { type ReadStateOptions, type ReadStateResult, readState } from './read/read-state.js';
export { type RunTreeNode, runTree } from './read/run-tree.js';
export { reduceState, replayTransitions } from './reducer/reduce-state.js';
export { endedByCrash, SERVER_CRASHED_REASON } from './reducer/run-transitions.js';
export { type OpenStateStoreOptions, StateStore } from './state-store.js';
export {
  type RepairResult,
  repairStructure,
  STATE_REPAIR_KINDS,
  type StateRepair,
  type StateRepairKind,
} from './validation/repair-state.js';
export { type ValidateStateOptions, validateState } from './validation/validate-state.js';
