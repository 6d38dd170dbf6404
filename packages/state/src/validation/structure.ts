import { type HankweaveState, stateSchema, type ValidationError } from '@hankweave/types';

const MAX_ISSUES = 10;

/**
 * The deepest nesting a state file may have. Real ones stay under 15 levels; past a few thousand,
 * the recursive walks of a save (`JSON.stringify`) or of an error message overflow the stack, so
 * such a file is refused as corrupt instead of being loaded and then never saved again.
 */
export const MAX_STATE_DEPTH = 256;

/** True when `value` nests objects or arrays deeper than `limit` (iterative: no recursion). */
export const nestedDeeperThan = (value: unknown, limit: number): boolean => {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number };
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= limit) return true;
    for (const child of Object.values(item.value))
      stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
};

/**
 * A short, safe rendering of a value read from disk for an error message: `String()` would throw
 * on an object whose `toString` key is not a function, overflow on deep arrays, and copy
 * megabytes of a huge string.
 */
export const show = (value: unknown): string => {
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 80)}...` : value;
  if (typeof value === 'object' && value !== null)
    return Array.isArray(value) ? '[array]' : '[object]';
  return String(value);
};

type Issue = { path: PropertyKey[]; message: string };

const at = (value: unknown, path: readonly PropertyKey[]): unknown => {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
};

const describeCodonIssue = (data: unknown, issue: Issue): string => {
  const [, runIndex, , codonIndex, ...rest] = issue.path;
  const run = at(data, ['runs', runIndex as number]) as { runId?: unknown } | undefined;
  const codon = at(data, ['runs', runIndex as number, 'codons', codonIndex as number]) as
    | { codonId?: unknown; status?: unknown }
    | undefined;
  const field = rest.length > 0 ? ` field '${rest.join('.')}'` : '';
  return (
    `Codon record runs[${String(runIndex)}].codons[${String(codonIndex)}] ` +
    `('${show(codon?.codonId)}', status '${show(codon?.status)}', run '${show(run?.runId)}')` +
    `${field}: ${issue.message}. The record does not match its status in seed 000; restore ` +
    'state.json.bak, or fix or remove this record by hand while no server is running.'
  );
};

/**
 * Structural validation of parsed JSON (seed 000 "State Validation" errors): `corrupted_data` for
 * a wrong top-level shape, `invalid_codon` for a codon record that does not match its status,
 * `missing_run` when `currentRunId` names no run, `corrupted_data` again when two runs share an id.
 * Returns the typed state when there is no error.
 */
export const validateStructure = (
  data: unknown,
): { state?: HankweaveState; errors: ValidationError[] } => {
  if (nestedDeeperThan(data, MAX_STATE_DEPTH)) {
    return {
      errors: [
        {
          type: 'corrupted_data',
          message:
            `state.json nests values more than ${MAX_STATE_DEPTH} levels deep; no hankweave ` +
            'writes that. Restore state.json.bak or move the file aside to start fresh.',
        },
      ],
    };
  }
  const parsed = stateSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues as Issue[];
    const errors: ValidationError[] = issues.slice(0, MAX_ISSUES).map((issue) =>
      issue.path[0] === 'runs' && issue.path[2] === 'codons' && issue.path.length >= 4
        ? { type: 'invalid_codon', message: describeCodonIssue(data, issue) }
        : {
            type: 'corrupted_data',
            message:
              `state.json has the wrong structure at '${issue.path.join('.') || '(root)'}': ` +
              `${issue.message}. It was not written by a compatible hankweave; restore ` +
              'state.json.bak or move the file aside to start fresh.',
          },
    );
    if (issues.length > MAX_ISSUES) {
      errors.push({
        type: errors.at(-1)?.type ?? 'corrupted_data',
        message: `...and ${issues.length - MAX_ISSUES} more problems of the same kind.`,
      });
    }
    return { errors };
  }
  const state = parsed.data;
  if (state.currentRunId !== null && !state.runs.some((run) => run.runId === state.currentRunId)) {
    return {
      state,
      errors: [
        {
          type: 'missing_run',
          message:
            `currentRunId '${state.currentRunId}' names no run in state.json (the file was edited ` +
            'or restored partially). Loading repairs it (the newest running run, or null) and ' +
            'keeps the original file beside it as state.json.corrupt-<time>.',
        },
      ],
    };
  }
  const ids = new Set<string>();
  const repeated = state.runs.find((run) => ids.size === ids.add(run.runId).size);
  if (repeated !== undefined) {
    return {
      state,
      errors: [
        {
          type: 'corrupted_data',
          message:
            `Run id '${show(repeated.runId)}' is used by more than one run in state.json (the file ` +
            'was edited or merged by hand). Loading renames the older runs; to do it by hand, ' +
            'give each run a unique runId while no server is running.',
        },
      ],
    };
  }
  return { state, errors: [] };
};

/** `corrupted_data` for a file that is not JSON at all (torn write, garbage). */
export const notJsonError = (file: string, cause: unknown): ValidationError => ({
  type: 'corrupted_data',
  message:
    `${file} is not valid JSON (${cause instanceof Error ? cause.message : String(cause)}): it ` +
    'was cut short or overwritten. ' +
    (file === 'state.json'
      ? 'Hankweave falls back to state.json.bak automatically.'
      : 'If state.json is unusable too, hankweave starts a fresh state and keeps both damaged ' +
        'files beside it as state.json*.corrupt-<time>; restore one by hand if you can repair it.'),
});
