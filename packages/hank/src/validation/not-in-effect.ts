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
 * the start of a run, never silence. Today: the sentinel health-check settings, and parallel
 * blocks (specified and validated; the runtime refuses to run a hank with one). A feature that is
 * accepted before it works belongs here until it lands.
 */
export function notInEffectWarnings(config: HankConfig): HankIssue[] {
  const settings = Object.keys(config.overrides?.sentinel ?? {})
    .filter((key) => HEALTH_CHECK_SETTINGS.has(key))
    .map((key) => ({
      path: `overrides.sentinel.${key}`,
      message: 'sentinel health checks are not made by this version, so this setting has no effect',
      code: 'not_in_effect' as const,
    }));
  const blocks = config.hank.flatMap((item, index) =>
    isParallelConfig(item)
      ? [
          {
            path: `hank[${index}]`,
            message:
              "parallel blocks are specified and validated, but this version's runtime does not run them yet: a run refuses this hank (RUNTIME_UNSUPPORTED_FEATURE). Run the branches' codons in sequence meanwhile",
            code: 'not_in_effect' as const,
          },
        ]
      : [],
  );
  return [...settings, ...blocks];
}
