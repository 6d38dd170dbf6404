import type { z } from 'zod';

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
  // A model id the catalog does not know ("did you mean"), or one no installed harness runs.
  'unknown_model',
  'unserved_provider',
  // A Pi provider's model newer than the catalog: it runs, without a catalog price (a warning).
  'uncatalogued_model',
  'invalid_budget',
  // hank.json is not JSON at all (reported by the CLI and the runtime, which read the file).
  'invalid_json',
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
  // A feature hank.json accepts that this version does not carry out yet (a warning).
  'not_in_effect',
  // The output directory a run would copy into already holds files (a warning of `validate`).
  'output_directory_not_empty',
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
  // `when` conditions: a codon the hank lacks, or one that cannot have run before.
  'unknown_codon',
  'condition_order',
  'continues_conditional_codon',
  // Parallel blocks (issue 36): a session continued across a block's boundary, a resolver that
  // does not start fresh or has a condition, a block inside a branch.
  'continues_across_block',
  'invalid_resolver',
  'nested_parallel',
  // Budget warnings (reference §1.7 W1–W10, the ones it names).
  'budget_cap_above_allocation',
  'budget_unallocated_share',
  'budget_time_with_extensions',
  'budget_unpriced_model',
  'budget_zero',
  'budget_fail_with_retry',
  'budget_fail_not_first',
  'budget_time_above_loop',
  // Shapes accepted for compatibility, with a warning that says how to write them.
  'deprecated_before_copy',
  'misplaced_working_directory',
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

/** Example values for "missing — add ..." messages, by field name. */
const FIELD_EXAMPLES: Readonly<Record<string, string>> = {
  hank: '[ ...codons ]',
  codons: '[ ...codons ]',
  id: '"<unique id>"',
  name: '"<display name>"',
  version: '"1.0.0"',
  model: '"<model id>"',
  run: '"<shell command>"',
  command: '{ "run": "<shell command>" }',
  copy: '{ "from": "<path in the hank>", "to": "<path in agentRoot>" }',
  from: '"<path in the hank>"',
  to: '"<path in agentRoot>"',
  terminateOn: '{ "type": "iterationLimit", "limit": 3 }',
  sentinelConfig: '"<sentinel file>.json"',
  trigger: '{ "type": "event", "on": ["assistant.action"] }',
  execution: '{ "strategy": "immediate" }',
};

/** A placeholder for a missing value of the type zod expected. */
const BY_TYPE: Readonly<Record<string, string>> = {
  string: '"…"',
  object: '{ … }',
  array: '[ … ]',
  number: '<number>',
  int: '<integer>',
  boolean: 'true',
};

/** `value` at `path`, through own properties only. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    const key = String(segment);
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/**
 * The message of one zod issue, for a person. A required field that is missing says what to
 * add (`missing — add "model": "<model id>"`; an enum or a literal shows its values), never zod's
 * "expected string, received undefined"; any other issue keeps zod's message. `input` is the
 * value the schema parsed; the issue's path is relative to it.
 */
export function zodIssueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const key = issue.path[issue.path.length - 1];
  if (typeof key === 'string' && issue.code !== 'unrecognized_keys') {
    const parent = valueAt(input, issue.path.slice(0, -1));
    const isObject = typeof parent === 'object' && parent !== null && !Array.isArray(parent);
    if (isObject && !Object.hasOwn(parent, key)) {
      return `missing — add ${JSON.stringify(key)}: ${exampleOf(key, issue)}`;
    }
  }
  return issue.message;
}

function exampleOf(key: string, issue: z.core.$ZodIssue): string {
  // A missing discriminator (`type` of a rig item) is an invalid_union that lists its options.
  const options = (issue as { options?: unknown }).options;
  const values: readonly unknown[] | undefined =
    issue.code === 'invalid_value'
      ? issue.values
      : issue.code === 'invalid_union' && Array.isArray(options)
        ? options
        : undefined;
  if (values && values.length > 0) {
    const [first, ...rest] = values.map((value) => JSON.stringify(value));
    return rest.length > 0 ? `${first} (or ${rest.join(', ')})` : (first as string);
  }
  if (Object.hasOwn(FIELD_EXAMPLES, key)) return FIELD_EXAMPLES[key] as string;
  const expected = issue.code === 'invalid_type' ? issue.expected : undefined;
  return (expected && BY_TYPE[expected]) || '…';
}
