export {
  CODON_CHECKPOINT_TYPES,
  type CodonCheckpointType,
  knownCodonIds,
  type ParsedRef,
  parseRef,
  RECORD_CHECKPOINT_TYPES,
  type RecordCheckpointType,
  type ResolvedRef,
  recordCheckpoint,
  resolveCheckpointRef,
  shortSha,
} from './checkpoint-ref.js';
export {
  type CommandLine,
  INSPECTION_ERROR_CODES,
  InspectionError,
  type InspectionErrorCode,
  plainCommandLine,
} from './errors.js';
export { eventCodonId } from './event-codon-id.js';
export { liveLock } from './live-lock.js';
export {
  journalPath,
  openCheckpointsReadOnly,
  readExecutionState,
  readMeta,
} from './read-execution.js';
export { readOnlyFs } from './read-only-fs.js';
export { recordTokens } from './record-tokens.js';
export { regularFilesFs } from './regular-files-fs.js';
export { sessionsErrorHint } from './sessions-hint.js';
