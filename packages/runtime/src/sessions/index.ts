// The sessions embedding API: list, kill, prune and check the executions recorded in a project's
// `.claude/loop-sessions.json` (seed 004). Re-exported by the runtime's index.

export {
  type CheckAndRepairOptions,
  type CheckAndRepairResult,
  checkAndRepairSessions,
} from './check-and-repair.js';
export { type KillResult, type KillSessionOptions, killSession } from './kill-session.js';
export { type ListSessionsOptions, listSessions, type SessionSummary } from './list-sessions.js';
export type { PrunePath, PrunePathKind, PruneSkip } from './prune-plan.js';
export { type PruneResult, type PruneSessionsOptions, pruneSessions } from './prune-sessions.js';
export type { SessionRefusal } from './session-error.js';
