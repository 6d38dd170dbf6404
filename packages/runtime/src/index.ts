// Public surface of @hankweave/runtime: named exports only.

export { CheckpointHint } from './codon/checkpoint-hint.js';
export { decideFailureAction, type FailureAction, retryDelayMs } from './codon/failure-policy.js';
export { RUNTIME_ERROR_CODES, RuntimeError, type RuntimeErrorCode } from './errors.js';
export { EventBus, type EventListener, type EventSink } from './events/event-bus.js';
export { createServerLog, type LogLevel, type RuntimeLogger } from './events/server-log.js';
export { hashDataSource, hashHank } from './execution/data-hash.js';
export {
  defaultExecutionBaseDir,
  EXECUTION_BASE_DIR_ENV,
  findNewestExecution,
  type PreparedExecution,
  type PrepareExecutionOptions,
  prepareExecution,
} from './execution/execution-dir.js';
export { readExecutionMeta } from './execution/execution-meta.js';
export {
  agentLogPath,
  DATA_LINK_NAME,
  type ExecutionLayout,
  executionLayout,
} from './execution/layout.js';
export {
  buildInitialPlan,
  type CodonEnding,
  type Expansion,
  expandAfterCodon,
  loopCodonId,
} from './plan/planner.js';
export type { PromptMetadata } from './prompt/frontmatter.js';
export { type BuiltPrompts, buildPrompts, renderPromptText } from './prompt/prompt-builder.js';
export type { RollbackRequest, RollbackTarget } from './rollback/resolve-target.js';
export {
  type CommandResult,
  createRuntime,
  type Runtime,
  type RuntimeCommand,
} from './runtime/create-runtime.js';
export type { CreateRuntimeOptions } from './runtime/create-runtime-options.js';
export { computeExitCode, type ShutdownReason } from './runtime/exit-code.js';
export { HankweaveRuntime, type RuntimeExit } from './runtime/hankweave-runtime.js';
export { type LoadedHank, loadHank } from './runtime/open-execution.js';
export type { SentinelHost } from './runtime/sentinel-host.js';
export {
  CLOSE_CODES,
  type ClientInfo,
  type CloseInfo,
  type ConnectOptions,
  connectHankweave,
  type HandshakeResult,
  type HankweaveClient,
  type HankweaveServer,
  SERVER_ERROR_CODES,
  type ServerErrorCode,
  startWebSocketServer,
  type WebSocketServerOptions,
} from './server/index.js';
