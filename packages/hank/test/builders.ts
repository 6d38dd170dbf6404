import type { HankConfig } from '@hankweave/types';
import { interpret } from '../src/interpreter/interpret.js';
import type { AttemptOutcome, Execution, InterpreterInput } from '../src/interpreter/outcomes.js';
import type { HankIssue } from '../src/validation/hank-issue.js';
import { validateHank } from '../src/validation/validate-hank.js';

// Small builders of hank.json items and interpreter runs, shared by the interpreter's and the
// validation's tests. Test-only: tsup builds src/index.ts alone and package.json ships no test/.

/** A codon with every required field, so a test writes only what it is about. */
export const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
  ...extra,
});

/** A loop that ends as `terminateOn` says: the interpreter's tests are about how loops end. */
export const loop = (id: string, terminateOn: unknown, codons: unknown[], extra = {}) => ({
  type: 'loop',
  id,
  name: id,
  terminateOn,
  codons,
  ...extra,
});

/** A loop of two iterations, for validation tests, where how a loop ends does not matter. */
export const loopOf = (id: string, codons: unknown[], extra = {}) =>
  loop(id, { type: 'iterationLimit', limit: 2 }, codons, extra);

/** A parallel block, its branches written as `{branchId: items}` (in that order). */
export const block = (id: string, branches: Record<string, unknown[]>, extra = {}) => ({
  type: 'parallel',
  id,
  name: id,
  branches: Object.entries(branches).map(([branchId, items]) => ({ id: branchId, items })),
  ...extra,
});

/**
 * A validated hank of `items` (`extra`: more top-level keys, e.g. `overrides`): the interpreter
 * takes parsed configs only, so a test hank that does not validate throws right here.
 */
export function hankOf(items: unknown[], extra: Record<string, unknown> = {}): HankConfig {
  const result = validateHank({ meta: { name: 'spec', version: '1.0.0' }, hank: items, ...extra });
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return result.config as HankConfig;
}

/** Interprets `hank` with the outcomes of a table by codon id (its n-th element is attempt n). */
export function run(
  hank: HankConfig,
  table: Record<string, AttemptOutcome[]>,
  extra: Partial<InterpreterInput> = {},
) {
  return interpret({ hank, outcome: (codonId, attempt) => table[codonId]?.[attempt], ...extra });
}

/** Executions as `codonId:status`, `:condition` added to a skip by a condition: easy to compare. */
export const ids = (executions: Execution[]) =>
  executions.map(
    (execution) =>
      `${execution.codonId}:${execution.status}${execution.skippedBy ? ':condition' : ''}`,
  );

/** An attempt whose session fails for good (not retriable). */
export const failing: AttemptOutcome = { sessions: [{ end: 'fatal-error', cost: 0.02 }] };

/** A validation's errors and warnings as `path code`, so a test states them in one list. */
export const issues = (result: { errors: HankIssue[]; warnings: HankIssue[] }) =>
  [...result.errors, ...result.warnings].map((issue) => `${issue.path} ${issue.code}`);
