export { type DollarLimits, dollarLimits, type Spend } from './interpreter/budget.js';
export { interpret } from './interpreter/interpret.js';
export {
  type AttemptOutcome,
  DEFAULT_SESSION,
  type Execution,
  type FailureKind,
  type Interpretation,
  type InterpreterInput,
  type LoopEnding,
  type LoopTermination,
  type PlateauVote,
  type SessionEnd,
  type SessionOutcome,
  type Stop,
  type UserStep,
} from './interpreter/outcomes.js';
