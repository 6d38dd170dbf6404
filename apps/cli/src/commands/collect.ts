/**
 * The argument parser of a repeatable flag (`--type a --type b`): each value is appended to the
 * ones before, so the action receives `string[]` (its type inferred from this signature).
 */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
