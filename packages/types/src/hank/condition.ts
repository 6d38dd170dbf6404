import { z } from 'zod';

/**
 * What a `{codon, status}` condition can ask of a codon's newest execution on the execution
 * thread: its final status, or `not-run` when it has none (a loop that ended before it, a block
 * whose own condition was false).
 */
export const CONDITION_STATUSES = ['completed', 'failed', 'skipped', 'not-run'] as const;
export type ConditionStatus = (typeof CONDITION_STATUSES)[number];

/** A JSON value compared by deep equality. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A `when` condition (issue 36), evaluated just before its codon, loop or block would run.
 *
 * - `{codon, status}`: the newest execution, on the thread, of the codon with that id (any
 *   iteration of a loop codon) has one of the statuses.
 * - `{exists}`: a path relative to agentRoot exists (a symlink counts as itself, never followed).
 * - `{json, pointer, equals | notEquals}`: the value at an RFC 6901 JSON pointer of a JSON file
 *   in agentRoot; a missing file, bad JSON or a missing value compares as absent (`equals`
 *   fails, `notEquals` holds).
 * - `{sentinel, pointer?, equals | notEquals}`: the same, on the newest structured output of a
 *   sentinel in this execution.
 * - `{all}`, `{any}`, `{not}`: combinations.
 */
export type Condition =
  | { codon: string; status: ConditionStatus | ConditionStatus[] }
  | { exists: string }
  | { json: string; pointer: string; equals?: JsonValue; notEquals?: JsonValue }
  | { sentinel: string; pointer?: string; equals?: JsonValue; notEquals?: JsonValue }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

const conditionStatusSchema = z.enum(CONDITION_STATUSES);
const pointerSchema = z
  .string()
  .regex(
    /^(\/([^~]|~[01])*)*$/,
    'A JSON pointer is "" or starts with "/" (RFC 6901): "/tests/failed"',
  );

/** Exactly one of `equals` and `notEquals`: a comparison must say what it expects. */
const oneComparison = (value: { equals?: unknown; notEquals?: unknown }) =>
  'equals' in value !== 'notEquals' in value;
const comparisonMessage = { error: 'Give exactly one of "equals" and "notEquals"' };

export const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.strictObject({
      codon: z.string().min(1),
      status: z.union([conditionStatusSchema, z.array(conditionStatusSchema).min(1)]),
    }),
    z.strictObject({ exists: z.string().min(1) }),
    z
      .strictObject({
        json: z.string().min(1),
        pointer: pointerSchema,
        equals: z.json().optional(),
        notEquals: z.json().optional(),
      })
      .refine(oneComparison, comparisonMessage),
    z
      .strictObject({
        sentinel: z.string().min(1),
        pointer: pointerSchema.optional(),
        equals: z.json().optional(),
        notEquals: z.json().optional(),
      })
      .refine(oneComparison, comparisonMessage),
    z.strictObject({ all: z.array(conditionSchema).min(1) }),
    z.strictObject({ any: z.array(conditionSchema).min(1) }),
    z.strictObject({ not: conditionSchema }),
  ]),
) as z.ZodType<Condition>;

/** Every codon id a condition asks about, in the order written. */
export function conditionCodonIds(condition: Condition): string[] {
  if ('codon' in condition) return [condition.codon];
  if ('all' in condition) return condition.all.flatMap(conditionCodonIds);
  if ('any' in condition) return condition.any.flatMap(conditionCodonIds);
  if ('not' in condition) return conditionCodonIds(condition.not);
  return [];
}

/** Every sentinel id a condition asks about, in the order written. */
export function conditionSentinelIds(condition: Condition): string[] {
  if ('sentinel' in condition) return [condition.sentinel];
  if ('all' in condition) return condition.all.flatMap(conditionSentinelIds);
  if ('any' in condition) return condition.any.flatMap(conditionSentinelIds);
  if ('not' in condition) return conditionSentinelIds(condition.not);
  return [];
}

/** Every agentRoot file a condition reads, with its key (`exists` or `json`), in the order written. */
export function conditionFiles(condition: Condition): { key: 'exists' | 'json'; path: string }[] {
  if ('exists' in condition) return [{ key: 'exists', path: condition.exists }];
  if ('json' in condition) return [{ key: 'json', path: condition.json }];
  if ('all' in condition) return condition.all.flatMap(conditionFiles);
  if ('any' in condition) return condition.any.flatMap(conditionFiles);
  if ('not' in condition) return conditionFiles(condition.not);
  return [];
}

/** A one-line reading of a condition, for skip reasons and `validate -v`. */
export function describeCondition(condition: Condition): string {
  const compare = (value: { equals?: unknown; notEquals?: unknown }) =>
    'equals' in value
      ? `= ${JSON.stringify(value.equals)}`
      : `≠ ${JSON.stringify(value.notEquals)}`;
  if ('codon' in condition) {
    const statuses = [condition.status].flat();
    return `codon ${condition.codon} is ${statuses.join(' or ')}`;
  }
  if ('exists' in condition) return `${condition.exists} exists`;
  if ('json' in condition)
    return `${condition.json} ${condition.pointer || '(whole file)'} ${compare(condition)}`;
  if ('sentinel' in condition) {
    return `sentinel ${condition.sentinel} ${condition.pointer || 'output'} ${compare(condition)}`;
  }
  if ('all' in condition) return `(${condition.all.map(describeCondition).join(' and ')})`;
  if ('any' in condition) return `(${condition.any.map(describeCondition).join(' or ')})`;
  return `not ${describeCondition(condition.not)}`;
}
