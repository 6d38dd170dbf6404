import {
  checkModelId,
  type HankConfig,
  type HarnessName,
  type ModelCatalog,
  SERVED_HARNESSES,
} from '@hankweave/types';
import { formatJsonPath, type HankIssue } from './hank-issue.js';
import { codonsInOrder } from './plan-order.js';

/** The issue of one model id at `path`, or undefined when the id is usable. */
export function modelIssue(
  id: string,
  path: readonly PropertyKey[] | string,
  catalog: ModelCatalog,
  harnesses: readonly HarnessName[] = SERVED_HARNESSES,
): HankIssue | undefined {
  const check = checkModelId(id, catalog, harnesses);
  if (check.ok) return undefined;
  return {
    path: typeof path === 'string' ? path : formatJsonPath(path),
    code: check.code,
    message: check.message,
  };
}

/**
 * Every model id the hank names, checked against the catalog: `overrides.model`, each codon's
 * `model` and each inline sentinel's `model` (sentinels in their own files are checked where those
 * files are read). A path that already has an `invalid_model` issue (an id with whitespace) is
 * skipped, so one mistake gives one error. Codon models (and `overrides.model`) may run on any of
 * `harnesses`; sentinels call Anthropic's API themselves, so their models are checked as Claude
 * Code's whatever is installed.
 */
export function hankModelIssues(
  config: HankConfig,
  catalog: ModelCatalog,
  reported: readonly HankIssue[] = [],
  harnesses: readonly HarnessName[] = SERVED_HARNESSES,
): HankIssue[] {
  const issues: HankIssue[] = [];
  const taken = new Set(reported.filter((i) => i.code === 'invalid_model').map((i) => i.path));
  const check = (id: string | undefined, path: PropertyKey[], served = harnesses) => {
    if (id === undefined) return;
    const issue = modelIssue(id, path, catalog, served);
    if (issue && !taken.has(issue.path)) issues.push(issue);
  };
  check(config.overrides?.model, ['overrides', 'model']);
  for (const { codon, path } of codonsInOrder(config)) {
    check(codon.model, [...path, 'model']);
    for (const [index, entry] of (codon.sentinels ?? []).entries()) {
      if (typeof entry.sentinelConfig === 'string') continue;
      const at = [...path, 'sentinels', index, 'sentinelConfig', 'model'];
      check(entry.sentinelConfig.model, at, SERVED_HARNESSES);
    }
  }
  return issues;
}
