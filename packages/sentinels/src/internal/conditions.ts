import type { SentinelCondition } from '@hankweave/types';

/** Reads `a.b.c` from a value; any missing step gives `undefined`. */
export function getValueByPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (typeof current !== 'object' && typeof current !== 'string') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

const regexCache = new Map<string, RegExp | null>();

function compiled(source: string): RegExp | null {
  let regex = regexCache.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source);
    } catch {
      // An invalid pattern never matches, as in the original runtime.
      regex = null;
    }
    regexCache.set(source, regex);
  }
  return regex;
}

/** One condition against an event's data; a missing value is always false. */
export function conditionHolds(condition: SentinelCondition, data: unknown): boolean {
  const actual = getValueByPath(data, condition.path);
  if (actual === undefined) return false;
  switch (condition.operator) {
    case 'equals':
      return actual === condition.value;
    case 'notEquals':
      return actual !== condition.value;
    case 'in':
      return (condition.value as unknown[]).includes(actual);
    case 'notIn':
      return !(condition.value as unknown[]).includes(actual);
    case 'contains':
      if (typeof actual === 'string') return actual.includes(condition.value);
      return Array.isArray(actual) && actual.includes(condition.value);
    case 'matches': {
      const regex = compiled(condition.value);
      return regex !== null && typeof actual === 'string' && regex.test(actual);
    }
    case 'greaterThan':
      return typeof actual === 'number' && actual > condition.value;
    case 'lessThan':
      return typeof actual === 'number' && actual < condition.value;
  }
}

/** All conditions hold (AND); no conditions means true. */
export function allConditionsHold(
  conditions: readonly SentinelCondition[] | undefined,
  data: unknown,
): boolean {
  return (conditions ?? []).every((condition) => conditionHolds(condition, data));
}
