import { type HankweaveState, stateSchema, type ValidationError } from '@hankweave/types';

const MAX_ISSUES = 10;

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
    `('${String(codon?.codonId)}', status '${String(codon?.status)}', run '${String(run?.runId)}')` +
    `${field}: ${issue.message}. The record does not match its status in seed 000; restore ` +
    'state.json.bak, or fix or remove this record by hand while no server is running.'
  );
};

/**
 * Structural validation of parsed JSON (seed 000 "State Validation" errors): `corrupted_data` for
 * a wrong top-level shape, `invalid_codon` for a codon record that does not match its status,
 * `missing_run` when `currentRunId` names no run. Returns the typed state when there is no error.
 */
export const validateStructure = (
  data: unknown,
): { state?: HankweaveState; errors: ValidationError[] } => {
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
            'or restored partially). Restore state.json.bak, or set currentRunId to null while ' +
            'no server is running.',
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
