import { type HankConfig, isParallelConfig } from '@hankweave/types';
import type { HankIssue } from './hank-issue.js';

/**
 * The `overrides.sentinel` settings this version accepts but cannot act on: it makes no sentinel
 * health checks (`enablePersistence` is in effect).
 */
const HEALTH_CHECK_SETTINGS = new Set(['healthCheckGracePeriodMs', 'waitForAllHealthChecks']);

/**
 * The `not_in_effect` warnings of a parsed hank. A contract we accept is a contract we keep: a
 * field that parses but that this version does not carry out is a warning on `validate` and at
 * the start of a run, never silence. Today: the sentinel health-check settings, and what a
 * parallel block may say that the runtime does not run yet and refuses (`RUNTIME_UNSUPPORTED_
 * FEATURE`): a block's own budget, a hank budget allocation other than `shared` around a block.
 * A feature that is accepted before it works belongs here until it lands.
 */
export function notInEffectWarnings(config: HankConfig): HankIssue[] {
  const settings = Object.keys(config.overrides?.sentinel ?? {})
    .filter((key) => HEALTH_CHECK_SETTINGS.has(key))
    .map((key) => ({
      path: `overrides.sentinel.${key}`,
      message: 'sentinel health checks are not made by this version, so this setting has no effect',
      code: 'not_in_effect' as const,
    }));
  const warn = (path: string, message: string) => ({
    path,
    message: `${message}: a run refuses this hank (RUNTIME_UNSUPPORTED_FEATURE)`,
    code: 'not_in_effect' as const,
  });
  const blocks = config.hank.flatMap((item, index) => {
    if (!isParallelConfig(item)) return [];
    const issues: HankIssue[] = [];
    if (item.budget !== undefined) {
      issues.push(
        warn(
          `hank[${index}].budget`,
          "a parallel block's own budget is not enforced by this version; set the limit in overrides.budget or on the codons",
        ),
      );
    }
    const allocation = config.overrides?.budget?.allocation ?? 'shared';
    if (allocation !== 'shared') {
      issues.push(
        warn(
          'overrides.budget.allocation',
          `allocation ${allocation} is not applied around a parallel block by this version; use "shared"`,
        ),
      );
    }
    return issues;
  });
  return [...settings, ...blocks];
}
