/** One finding of `validateHank`: where (a JSON path such as `hank[1].promptFile`) and what. */
export interface HankIssue {
  /** JSON path into hank.json, or into a sentinel file (`<file>: trigger.on`). */
  path: string;
  message: string;
  /** A stable machine-readable kind, e.g. `unknown_field`, `missing_file`, `duplicate_id`. */
  code: string;
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
