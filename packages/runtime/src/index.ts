// Public surface of @hankweave/runtime: what the CLI, embedders and inspection tools use.
// Everything else is internal; tests inside the package import it by path.

export { RUNTIME_CONFIG_FILE } from './config/read-runtime-config.js';
export {
  type ConfigEntry,
  describeSource,
  type ResolvedRuntimeConfig,
  type RuntimeConfigInputs,
  resolveRuntimeConfig,
  runtimeOptionsOf,
} from './config/resolve-runtime-config.js';
export {
  CONFIG_SOURCES,
  type ConfigSource,
  type ConfigValue,
  envNameOf,
  RUNTIME_CONFIG_KEYS,
} from './config/runtime-config-keys.js';
export {
  type CheckModelAccessOptions,
  checkModelAccess,
  type ModelToCheck,
} from './doctor/check-model-access.js';
export {
  classifyProbeFailure,
  type ProbeFailureEvidence,
  type ProbeFailureKind,
} from './doctor/classify-probe-failure.js';
export {
  MODEL_ACCESS_STATUSES,
  type ModelAccessResult,
  type ModelAccessStatus,
} from './doctor/model-access-result.js';
export type { ProbeTimeouts } from './doctor/probe-model.js';
export { RUNTIME_ERROR_CODES, RuntimeError, type RuntimeErrorCode } from './errors.js';
export type { EventListener } from './events/event-bus.js';
export type { LogLevel, RuntimeLogger } from './events/server-log.js';
export { hashDataSource } from './execution/data-hash.js';
export { defaultExecutionBaseDir, findNewestExecution } from './execution/execution-dir.js';
export { readExecutionMeta } from './execution/execution-meta.js';
export type { DataIdentity, ExecutionMatch } from './execution/find-newest-execution.js';
export { defaultInputCacheDir, inputFileName, storeInputText } from './execution/input-source.js';
export { type ExecutionLayout, executionLayout } from './execution/layout.js';
export {
  type CheckAndRepairOptions,
  type CheckAndRepairResult,
  checkAndRepairExecutions,
  type ExecutionRefusal,
  type KillExecutionOptions,
  type KillResult,
  killExecution,
  type ListExecutionsOptions,
  listExecutions,
  type PruneExecutionsOptions,
  type PrunePath,
  type PrunePathKind,
  type PruneResult,
  type PruneSkip,
  pruneExecutions,
  type SessionSummary,
} from './executions-admin/index.js';
export { type BuiltPrompts, buildPrompts, type PromptPaths } from './prompt/prompt-builder.js';
export type { ReplayPacingOptions } from './replay/execution-replay-harness.js';
export type { ReplayOptions } from './replay/replay-options.js';
export {
  type CloseOptions,
  type CommandResult,
  createRuntime,
  type Runtime,
  type RuntimeCommand,
} from './runtime/create-runtime.js';
export type { CreateRuntimeOptions } from './runtime/create-runtime-options.js';
export { type HarnessLoaders, installedHarnesses } from './runtime/default-harness.js';
export type { RuntimeExit, ShutdownReason } from './runtime/exit-code.js';
export { type LoadedHank, loadHank } from './runtime/open-execution.js';
export { RUNTIME_PHASES, type RuntimePhase } from './runtime/phase.js';
export type { AdapterLockFields, RuntimePort } from './runtime/runtime-port.js';
export type { SentinelBranch, SentinelHost } from './runtime/sentinel-host.js';
export {
  type Containment,
  describeContainment,
  SANDBOX_MODES,
  type SandboxMode,
} from './sandbox/containment.js';
