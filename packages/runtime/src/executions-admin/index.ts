// The execution admin: list, kill, prune and check the executions recorded in a project's
// `.claude/loop-sessions.json`, seed 004's session registry (a registry entry is a session, the
// runtime process behind it an execution). Re-exported by the runtime's index; the CLI's
// `sessions`, `kill` and `prune` commands are thin shells over it.

export {
  type CheckAndRepairOptions,
  type CheckAndRepairResult,
  checkAndRepairExecutions,
} from './check-and-repair.js';
export type { ExecutionRefusal } from './execution-refusal.js';
export { type KillExecutionOptions, type KillResult, killExecution } from './kill-execution.js';
export {
  type ListExecutionsOptions,
  listExecutions,
  type SessionSummary,
} from './list-executions.js';
export {
  type PruneExecutionsOptions,
  type PruneResult,
  pruneExecutions,
} from './prune-executions.js';
export type { PrunePath, PrunePathKind, PruneSkip } from './prune-plan.js';
