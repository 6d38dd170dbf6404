import { isDeepStrictEqual } from 'node:util';
import type { Condition, ConditionStatus } from '@hankweave/types';
import { type Lookup, lookUpPointer } from './json-pointer.js';

/**
 * What a condition can read. Synchronous on purpose: the interpreter answers from its model and
 * the runtime reads the files and outputs a condition names before evaluating it
 * (`conditionInputs`), so evaluation is one pure function both share.
 */
export interface ConditionFacts {
  /** The status of the newest execution, on the thread, of a codon (any iteration); `not-run`. */
  statusOf(codonId: string): ConditionStatus;
  /** True when the path exists in agentRoot (a link is itself, never followed). */
  exists(path: string): boolean;
  /** A JSON file of agentRoot, parsed, or why it cannot be read. */
  jsonFile(path: string): Lookup;
  /** The newest structured output of a sentinel in this execution, or why there is none. */
  sentinelOutput(sentinelId: string): Lookup;
}

/** Whether a condition holds, and the facts that decided it, in words. */
export interface ConditionResult {
  holds: boolean;
  reason: string;
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

function compare(
  what: string,
  found: Lookup,
  expected: { equals?: unknown; notEquals?: unknown },
): ConditionResult {
  const wantsEqual = 'equals' in expected;
  if ('absent' in found) return { holds: !wantsEqual, reason: `${what}: ${found.absent}` };
  const equal = isDeepStrictEqual(found.value, wantsEqual ? expected.equals : expected.notEquals);
  return { holds: wantsEqual === equal, reason: `${what} is ${show(found.value)}` };
}

const within = (found: Lookup, pointer: string): Lookup =>
  'absent' in found ? found : lookUpPointer(found.value, pointer);

/** Evaluates a `when` condition against the facts; the reason names what decided it. */
export function evaluateCondition(condition: Condition, facts: ConditionFacts): ConditionResult {
  if ('codon' in condition) {
    const status = facts.statusOf(condition.codon);
    const wanted: readonly ConditionStatus[] = [condition.status].flat();
    return { holds: wanted.includes(status), reason: `codon ${condition.codon} is ${status}` };
  }
  if ('exists' in condition) {
    const exists = facts.exists(condition.exists);
    return {
      holds: exists,
      reason: `${condition.exists} ${exists ? 'exists' : 'does not exist'}`,
    };
  }
  if ('json' in condition) {
    return compare(
      `${condition.json} ${condition.pointer || '(whole file)'}`,
      within(facts.jsonFile(condition.json), condition.pointer),
      condition,
    );
  }
  if ('sentinel' in condition) {
    const pointer = condition.pointer ?? '';
    return compare(
      `sentinel ${condition.sentinel} ${pointer || 'output'}`,
      within(facts.sentinelOutput(condition.sentinel), pointer),
      condition,
    );
  }
  if ('not' in condition) {
    const inner = evaluateCondition(condition.not, facts);
    return { holds: !inner.holds, reason: inner.reason };
  }
  // `all` needs every part, `any` one: the reason names the part that decided, or all of them.
  const all = 'all' in condition;
  const parts = (all ? condition.all : condition.any).map((part) => evaluateCondition(part, facts));
  const decisive = parts.find((part) => part.holds !== all);
  if (decisive) return { holds: !all, reason: decisive.reason };
  return { holds: all, reason: parts.map((part) => part.reason).join(all ? ' and ' : ', ') };
}
