export { CheckpointEngine } from './checkpoint-engine.js';
export { CHECKPOINT_ERROR_CODES, CheckpointError, type CheckpointErrorCode } from './errors.js';
export {
  type CheckpointMessage,
  formatMessage as formatCheckpointMessage,
  parseMessage as parseCheckpointMessage,
} from './internal/message.js';
export {
  CHECKPOINT_TYPES,
  type CheckpointEngineOptions,
  type CheckpointFile,
  type CheckpointInfo,
  type CheckpointInput,
  type CheckpointResult,
  type CheckpointType,
  type CommitMergeInput,
  type CommitMergeResult,
  type DiffEntry,
  type DiffOptions,
  type DiffStatus,
  type HeadState,
  type MergeBranch,
  type MergeConflict,
  type MergeConflictKind,
  type MergeConflictSide,
  type MergeInput,
  type MergePolicy,
  type MergeResolution,
  type MergeResult,
  type RestoreOptions,
  type RestoreResult,
  type SkippedFile,
  type SkipReason,
} from './types.js';
