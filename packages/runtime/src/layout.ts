// `@hankweave/runtime/layout`: where an execution keeps its files and how to find one, without
// loading the orchestrator (its agents, checkpoints and sentinels). For tools that only look at
// executions: the CLI's `attach`, `status`-like readers, scripts.

export { readDebrisManifests } from './execution/debris-manifests.js';
export {
  defaultExecutionBaseDir,
  EXECUTION_BASE_DIR_ENV,
  findNewestExecution,
} from './execution/execution-dir.js';
export { readExecutionMeta } from './execution/execution-meta.js';
export type { DataIdentity, ExecutionMatch } from './execution/find-newest-execution.js';
export {
  DEBRIS_MANIFEST,
  type DebrisManifest,
  type ExecutionLayout,
  executionLayout,
} from './execution/layout.js';
