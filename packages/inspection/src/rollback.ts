// A rollback opens the execution with the runtime (the orchestrator): its own entry, so that
// readers of `@hankweave/inspection` never load it.
export {
  type RollbackExecutionOptions,
  type RollbackOutcome,
  rollbackCommandOf,
  rollbackExecution,
} from './rollback-execution.js';
