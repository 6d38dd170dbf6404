import type { CodonConfig, HankConfig, LoopConfig } from './hank-config.js';
import type { HankIssue } from './hank-issue.js';

/** hank.json features that parse but that this version does not carry out yet. */
type Feature = 'budget' | 'outputFiles' | 'archiveOnSuccess' | 'sentinelSettings';

/**
 * What a run does instead, per feature not in effect yet. A contract we accept is a contract we
 * keep: until a feature works, every use of it is a `not_in_effect` warning on `validate` and at
 * the start of a run, never silence. Delete a feature's entry when it takes effect.
 */
const NOT_IN_EFFECT: Partial<Record<Feature, string>> = {
  sentinelSettings:
    'sentinel health checks are not made by this version, so this setting has no effect',
};

type Path = (string | number)[];

function showPath(path: Path): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join('');
}

/** The `not_in_effect` warnings of a parsed hank (see {@link NOT_IN_EFFECT}). */
export function notInEffectWarnings(config: HankConfig): HankIssue[] {
  const warnings: HankIssue[] = [];
  const warn = (feature: Feature, path: Path) => {
    const message = NOT_IN_EFFECT[feature];
    if (message) warnings.push({ path: showPath(path), message, code: 'not_in_effect' });
  };
  if (config.overrides?.budget) warn('budget', ['overrides', 'budget']);
  // `enablePersistence` is in effect; the health-check settings have nothing to act on.
  for (const key of Object.keys(config.overrides?.sentinel ?? {})) {
    if (key !== 'enablePersistence') warn('sentinelSettings', ['overrides', 'sentinel', key]);
  }
  const codon = (item: CodonConfig, path: Path) => {
    if (item.budget) warn('budget', [...path, 'budget']);
    if (item.outputFiles?.length) warn('outputFiles', [...path, 'outputFiles']);
    if (item.archiveOnSuccess?.length) warn('archiveOnSuccess', [...path, 'archiveOnSuccess']);
    for (const [index, operation] of (item.rigSetup ?? []).entries()) {
      if (operation.type === 'copy' && operation.archiveOnSuccess) {
        warn('archiveOnSuccess', [...path, 'rigSetup', index, 'archiveOnSuccess']);
      }
    }
  };
  config.hank.forEach((item, index) => {
    if (item.type !== 'loop') {
      codon(item as CodonConfig, ['hank', index]);
      return;
    }
    const loop = item as LoopConfig;
    if (loop.budget) warn('budget', ['hank', index, 'budget']);
    if (loop.archiveOnSuccess?.length)
      warn('archiveOnSuccess', ['hank', index, 'archiveOnSuccess']);
    for (const [at, inner] of loop.codons.entries()) codon(inner, ['hank', index, 'codons', at]);
  });
  return warnings;
}
