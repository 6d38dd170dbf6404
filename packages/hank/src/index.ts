// Public surface of @hankweave/hank: hank semantics, specified once. The reference interpreter
// (what a hank must do for given outcomes) and validation (what a hank.json may say, checked on
// disk). Named exports only.

export {
  type ConditionFacts,
  type ConditionResult,
  evaluateCondition,
} from './conditions/evaluate-condition.js';
export { type Lookup, lookUpPointer } from './conditions/json-pointer.js';
export {
  DOLLAR_TOLERANCE,
  type DollarLimits,
  dollarLimits,
  type Spend,
} from './interpreter/budget.js';
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
  type Merge,
  type MergeResult,
  type PlateauVote,
  type SessionEnd,
  type SessionOutcome,
  type Stop,
  type UserStep,
} from './interpreter/outcomes.js';
export {
  formatJsonPath,
  HANK_ISSUE_CODES,
  type HankIssue,
  type HankIssueCode,
  type HankValidation,
} from './validation/hank-issue.js';
export { type CopyTreeInspector, checkRefSyntax } from './validation/hank-refs.js';
export { withModelOverride } from './validation/model-override.js';
export { type ValidateHankOptions, validateHank } from './validation/validate-hank.js';
