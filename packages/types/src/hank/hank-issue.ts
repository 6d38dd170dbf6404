/**
 * Every kind of finding `validateHank` reports, errors and warnings alike: a closed list, so a
 * tool can switch on `code` and a new kind is a visible change of this list.
 */
export const HANK_ISSUE_CODES = [
  // Structure (the schema).
  'invalid_value',
  'unknown_field',
  'exclusive_fields',
  'invalid_model',
  'invalid_budget',
  // Bounds on the input itself (see `validateHank`'s limits).
  'too_deep',
  'too_large',
  // Paths: file references, and what the hank names under agentRoot.
  'invalid_path',
  'escapes_hank',
  'escapes_agent_root',
  'symlink',
  'missing_file',
  'not_regular',
  'special_file',
  'prompt_size',
  'prompt_required',
  'invalid_sentinel',
  // Cross-field rules.
  'duplicate_id',
  'duplicate_name',
  'duplicate_sentinel_id',
  'missing_env',
  'retry_config_without_retry',
  'dangerous_command',
  'loop_rig_without_allow_failure',
  'first_codon_continues',
  'continuation_model_mismatch',
  'continues_exhausted_session',
  'continues_ignored_failure',
  'previous_untracked',
  'fresh_in_context_loop',
  'loop_codon_aborts',
] as const;

/** One of {@link HANK_ISSUE_CODES}. */
export type HankIssueCode = (typeof HANK_ISSUE_CODES)[number];

/** One finding of `validateHank`: where (a JSON path such as `hank[1].promptFile`) and what. */
export interface HankIssue {
  /** JSON path into hank.json, or into a sentinel file (`<file>: trigger.on`). */
  path: string;
  message: string;
  /** A stable machine-readable kind, one of {@link HANK_ISSUE_CODES}. */
  code: HankIssueCode;
}

/** The result of validating a hank. `valid` is true when there are no errors. */
export interface HankValidation<Config = unknown> {
  valid: boolean;
  errors: HankIssue[];
  warnings: HankIssue[];
  /** The parsed config (defaults applied) when the structure is valid. */
  config?: Config;
}

/** Formats a path as `hank[1].codons[0].promptFile`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? '(root)' : out;
}
