// Public surface of @hankweave/types: named exports only. Schemas, errors, the model catalog and
// closed code lists; hank validation (validateHank) is @hankweave/hank's, which imports this
// package and never the other way round.

export {
  type AgentAssistantLine,
  type AgentContentBlock,
  type AgentLogLine,
  type AgentResultLine,
  type AgentSystemLine,
  type AgentUsage,
  type AgentUserLine,
  agentAssistantLineSchema,
  agentContentBlockSchema,
  agentLogLineSchema,
  agentOtherLineSchema,
  agentResultLineSchema,
  agentSystemLineSchema,
  agentUsageSchema,
  agentUserLineSchema,
} from './agent-log/agent-log-line.js';
export {
  addTokenUsage,
  type BudgetExceeded,
  budgetExceededSchema,
  CHECKPOINT_TYPES,
  type CheckpointType,
  checkpointTypeSchema,
  emptyTokenUsage,
  FAILURE_TYPES,
  type FailureReason,
  type FailureType,
  failureReasonSchema,
  isInterruption,
  type LoopContext,
  loopContextSchema,
  type TokenUsage,
  timestampSchema,
  tokenUsageSchema,
} from './common.js';
export {
  defineErrorClass,
  type ErrorDetails,
  HankweaveError,
  type HankweaveErrorClass,
  type HankweaveErrorOptions,
} from './errors.js';
export { agenticEventData } from './events/agentic-data.js';
export { connectionEventData } from './events/connection-data.js';
export {
  AGENTIC_BACKBONE_EVENT_TYPES,
  type AgenticBackboneEventType,
  CONNECTION_STATE_EVENT_TYPES,
  type ConnectionStateEventType,
  createEventId,
  EVENT_CATEGORIES,
  EVENT_TYPES,
  type EventCategory,
  type EventData,
  type EventEnvelope,
  type EventType,
  eventCategoryOf,
  eventDataSchemas,
  eventEnvelopeSchema,
  eventIdSchema,
  eventSchema,
  type HankweaveEvent,
  isAgenticBackboneEvent,
  isConnectionStateEvent,
  isJournaledEvent,
  isSentinelEvent,
  isServerStateEvent,
  JOURNALED_EVENT_TYPES,
  type JournaledEventType,
  type NewEvent,
  newEventSchema,
  SENTINEL_EVENT_TYPES,
  SERVER_STATE_EVENT_TYPES,
  type SentinelEventType,
  type ServerStateEventType,
} from './events/event.js';
export { type FileNode, fileNodeSchema } from './events/file-node.js';
export { sentinelEventData } from './events/sentinel-data.js';
export {
  type ExitStatus,
  exitStatusSchema,
  promptMetadataSchema,
  type SnapshotCodon,
  serverStateEventData,
  snapshotCodonId,
  snapshotCodonSchema,
} from './events/server-state-data.js';
export {
  type ArchiveManifest,
  type ArchiveManifestEntry,
  archiveManifestEntrySchema,
  archiveManifestSchema,
} from './files/archive-manifest.js';
export {
  type ExecutionMeta,
  executionMetaSchema,
  type HankSource,
  hankSourceSchema,
} from './files/execution-meta.js';
export {
  type LoopIterationRecord,
  type LoopSessionRegistry,
  type LoopState,
  type LoopVote,
  loopIterationRecordSchema,
  loopSessionRegistrySchema,
  loopStateSchema,
  loopVoteSchema,
  type PipelineState,
  pipelineStateSchema,
} from './files/loop-session.js';
export { type RuntimeLock, runtimeLockSchema } from './files/runtime-lock.js';
export {
  legacySentinelHistorySchema,
  type SentinelHistoryFile,
  type SentinelHistoryTurn,
  sentinelHistoryFileSchema,
} from './files/sentinel-history.js';
export { type WebSocketLogEntry, websocketLogEntrySchema } from './files/websocket-log.js';
export {
  CONDITION_STATUSES,
  type Condition,
  type ConditionStatus,
  conditionCodonIds,
  conditionSchema,
  conditionSentinelIds,
  describeCondition,
} from './hank/condition.js';
export {
  beforeCopyCommandSchema,
  type CodonConfig,
  type CodonConfigInput,
  type ContainerBudget,
  codonBudgetSchema,
  codonConfigSchema,
  codonTrackedPatterns,
  containerBudgetSchema,
  DEFAULT_HANK_META,
  type HankConfig,
  type HankConfigInput,
  type HankItem,
  type HankMeta,
  hankConfigSchema,
  hankItemSchema,
  hankMetaSchema,
  isLoopConfig,
  type LoopConfig,
  loopConfigSchema,
  type ProgressFileSetting,
  progressFileSchema,
  type RigCommandOperation,
  type RigOperation,
  retryConfigSchema,
  rigCommandOperationSchema,
  rigOperationSchema,
  sentinelSettingsSchema,
  type TerminateOn,
  terminateOnSchema,
} from './hank/hank-config.js';
export { hankNameFromPath } from './hank/hank-name.js';
export {
  type CodonSentinelEntry,
  codonSentinelEntrySchema,
  fileRefSchema,
  reportToWebsocketSchema,
  type SentinelCondition,
  type SentinelConfig,
  type SentinelConfigInput,
  type SentinelExecution,
  type SentinelTrigger,
  sentinelConditionSchema,
  sentinelConfigSchema,
  sentinelExecutionSchema,
  sentinelTriggerSchema,
  structuredOutputSchema,
} from './hank/sentinel-config.js';
export {
  describeJsonError,
  type JsonParseResult,
  type JsonSyntaxProblem,
  parseJsonWithLocation,
} from './json/json-location.js';
export { buildHankJsonSchema, buildSentinelJsonSchema } from './json-schemas.js';
export {
  costOfUsage,
  createModelCatalog,
  defaultModelCatalog,
  type ModelCatalog,
  type ModelRoute,
} from './models/model-catalog.js';
export { MODEL_CATALOG } from './models/model-catalog-data.js';
export {
  checkModelId,
  type ModelCheck,
  SERVED_HARNESSES,
  SERVED_PROVIDERS,
} from './models/model-check.js';
export type { ModelEntry, ModelPrice, PiRegistryRow } from './models/model-entry.js';
export { PI_REGISTRY_ROWS, PI_REGISTRY_VERSION } from './models/pi-registry-data.js';
export {
  providerBaseUrlName,
  providerGenericKeyName,
  providerKeyNames,
} from './models/provider-keys.js';
export {
  HARNESS_NAMES,
  type HarnessName,
  type HarnessSelection,
  type ModelEffort,
  selectHarness,
} from './models/select-harness.js';
export {
  CLIENT_COMMAND_TYPES,
  CLIENT_MODES,
  type ClientCommand,
  type ClientCommandType,
  clientCommandSchema,
  type Handshake,
  type HandshakeResponse,
  handshakeResponseSchema,
  handshakeSchema,
  READ_ONLY_COMMAND_TYPES,
  ROLLBACK_CHECKPOINT_TYPES,
} from './protocol/commands.js';
export { PROTOCOL_ERROR_CODES, type ProtocolErrorCode } from './protocol/protocol-error-codes.js';
export {
  ACTIVE_CODON_STATUSES,
  type ActiveCodonStatus,
  activeCodonStatusSchema,
  CODON_STATUSES,
  CODON_TRANSITIONS,
  type CodonExecution,
  type CodonExecutionOf,
  type CodonStatus,
  type CompletedCodon,
  type CompletingSentinelsCodon,
  codonExecutionSchema,
  codonStatusSchema,
  completedCodonSchema,
  completingSentinelsCodonSchema,
  type FailedCodon,
  failedCodonSchema,
  type InitializingCodon,
  initializingCodonSchema,
  isTerminalCodonStatus,
  type PreparingCodon,
  preparingCodonSchema,
  type RunningCodon,
  runningCodonSchema,
  type SkippedCodon,
  type StartingCodon,
  skippedCodonSchema,
  startingCodonSchema,
  TERMINAL_CODON_STATUSES,
  type TerminalCodonStatus,
} from './state/codon-execution.js';
export {
  type ExecutedSentinels,
  executedSentinelsSchema,
  type LoadedSentinels,
  loadedSentinelsSchema,
  type SentinelState,
  sentinelStateSchema,
} from './state/sentinel-state.js';
export {
  CONTINUATION_REASONS,
  type ExecutionCodonEntry,
  emptyState,
  executionCodonEntrySchema,
  type HankweaveState,
  type PlanCodon,
  planCodonSchema,
  RUN_STATUSES,
  type Run,
  type RunStatus,
  runSchema,
  runStatusSchema,
  STATE_VALIDATION_ERROR_TYPES,
  STATE_VALIDATION_WARNING_TYPES,
  type StartingConditions,
  type StateValidation,
  startingConditionsSchema,
  stateSchema,
  type ValidationError,
  type ValidationWarning,
} from './state/state.js';
export {
  type CodonTransitionedData,
  type CodonTransitionMetadata,
  REQUIRED_TRANSITION_METADATA,
  STATE_TRANSITION_TYPES,
  type StateTransition,
  type StateTransitionOf,
  type StateTransitionType,
  stateTransitionSchema,
} from './state/transitions.js';
export { FIELD_TYPO_MAP, suggestKey } from './suggest-key.js';
