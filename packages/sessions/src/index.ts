// Public surface of @hankweave/sessions: named exports only.

export {
  checkSessions,
  isProcessAlive,
  type SessionAnomalies,
  STALE_THRESHOLDS_MS,
} from './check.js';
export {
  appendCompletion,
  type CompletionRecord,
  readCompletions,
} from './completions.js';
export {
  type AgentDecision,
  parseDecisionFile,
  parseDecisionMessage,
} from './decision.js';
export { SESSIONS_ERROR_CODES, SessionsError, type SessionsErrorCode } from './errors.js';
export {
  loopSessionKey,
  parseSessionKey,
  pipelineSessionKey,
  progressFileRelativePath,
  SESSIONS_DIR_NAME,
  type SessionLayout,
  sessionLayout,
  toSessionName,
} from './layout.js';
export {
  type LoopIterationRecord,
  type LoopStateFile,
  type LoopVote,
  readLoopState,
  votesOf,
  withIteration,
  writeLoopState,
} from './loop-state.js';
export {
  type PipelineStage,
  type PipelineStateFile,
  readPipelineState,
  writePipelineState,
} from './pipeline-state.js';
export { type PlateauRule, type PlateauVerdict, plateauVerdict } from './plateau.js';
export { ensureProgressFile, progressEntries, progressFileHeader } from './progress-file.js';
export { type PruneSelection, parseDuration, selectPrunable } from './prune.js';
export {
  type RegistryProblem,
  type RegistrySnapshot,
  type SessionEntry,
  SessionRegistry,
  type SessionRegistryOptions,
  type SessionStatus,
} from './registry.js';
export { isoSeconds } from './timestamps.js';
