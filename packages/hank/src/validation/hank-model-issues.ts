import {
  checkModelId,
  HARNESS_NAMES,
  type HankConfig,
  type HarnessName,
  type ModelCatalog,
  SERVED_HARNESSES,
} from '@hankweave/types';
import { formatJsonPath, type HankIssue } from './hank-issue.js';
import { codonsInOrder } from './plan-order.js';

/**
 * The harnesses a sentinel's model is checked against: all of them. A sentinel runs on no agent;
 * it calls its model's provider itself (`@hankweave/sentinels`, through the AI SDK's provider
 * packages), so any provider's model the catalog knows is usable whatever agents are installed.
 * A provider sentinels cannot call (Bedrock, Vertex, …) is refused when the sentinel loads.
 */
export const SENTINEL_HARNESSES: readonly HarnessName[] = HARNESS_NAMES;

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
 * `harnesses`; sentinels call their provider's API themselves, so their models need only be in
 * the catalog ({@link SENTINEL_HARNESSES}).
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
      check(entry.sentinelConfig.model, at, SENTINEL_HARNESSES);
    }
  }
  return issues;
}

/**
 * Warnings for the codon models (and `overrides.model`) that name a provider Pi knows but a model
 * the catalog does not list (`openai/gpt-5.6`, newer than Pi's registry): they run, since Pi asks
 * the provider for any id, but without a catalog price, and a typo would only show when the provider refuses it.
 */
export function hankModelWarnings(
  config: HankConfig,
  catalog: ModelCatalog,
  harnesses: readonly HarnessName[] = SERVED_HARNESSES,
): HankIssue[] {
  const warnings: HankIssue[] = [];
  const check = (id: string | undefined, path: PropertyKey[]) => {
    if (id === undefined) return;
    const verdict = checkModelId(id, catalog, harnesses);
    if (verdict.ok && verdict.uncatalogued) {
      warnings.push({
        path: formatJsonPath(path),
        code: 'uncatalogued_model',
        message: verdict.uncatalogued.message,
      });
    }
  };
  check(config.overrides?.model, ['overrides', 'model']);
  for (const { codon, path } of codonsInOrder(config)) check(codon.model, [...path, 'model']);
  return warnings;
}
