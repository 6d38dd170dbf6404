import {
  type CodonSentinelEntry,
  type ContainerBudget,
  codonTrackedPatterns,
  type HankConfig,
  isLoopConfig,
  isParallelConfig,
  type LoopConfig,
  type ParallelConfig,
  resolverOf,
} from '@hankweave/types';
import { checkBudgetWarnings } from './budget-warnings.js';
import { checkConditions } from './condition-rules.js';
import { formatJsonPath, type HankIssue, type HankIssueCode } from './hank-issue.js';
import { clip } from './input-limits.js';
import { blockBoundaryBefore, codonsInOrder, predecessorsOf } from './plan-order.js';

type Report = (path: PropertyKey[], code: HankIssueCode, message: string) => void;

/** A user-given name quoted in a message, clipped so no message grows with the input. */
const quote = (text: string) => JSON.stringify(clip(text));

/** Up to 10 names, then how many more: a list in a message stays short. */
function listNames(names: readonly string[], max = 10): string {
  const shown = names.slice(0, max).map((name) => clip(name, 40));
  return names.length > max
    ? `${shown.join(', ')} and ${names.length - max} more`
    : shown.join(', ');
}

// `rm -<flags with r> /` and `rm -<flags with r> ~`: the flags are matched as one run of letters
// and tested for an `r` afterwards. The old single patterns (`-[a-z]*r[a-z]*f?[a-z]*`) backtracked
// in cubic time: a 4,000-character command took 13 s to check.
const RECURSIVE_RM = /rm\s+-([a-z]+)\s+(?:\/|~\/?)(?:\s|$)/gi;
const DANGEROUS_COMMANDS = [/>\s*\/dev\/sd[a-z]/i, /^\s*format(\s|$)/i, /del\s+\/s\s+\/q\s+c:/i];

/** True when a rig command looks destructive (reference §1.11). */
function looksDangerous(run: string): boolean {
  for (const match of run.matchAll(RECURSIVE_RM)) {
    if ((match[1] as string).toLowerCase().includes('r')) return true;
  }
  return DANGEROUS_COMMANDS.some((pattern) => pattern.test(run));
}

/**
 * The cross-field rules of reference §1.11 on a structurally valid hank. `raw` is the input
 * before defaults, so "left at the default" can be told from "set explicitly".
 */
export function checkHankRules(
  config: HankConfig,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>>,
): { errors: HankIssue[]; warnings: HankIssue[] } {
  const errors: HankIssue[] = [];
  const warnings: HankIssue[] = [];
  const error: Report = (path, code, message) =>
    errors.push({ path: formatJsonPath(path), code, message });
  const warn: Report = (path, code, message) =>
    warnings.push({ path: formatJsonPath(path), code, message });

  for (const name of config.requirements?.env ?? []) {
    if (env[name] === undefined && env[`HANKWEAVE_${name}`] === undefined) {
      error(
        ['requirements', 'env'],
        'missing_env',
        `Set ${clip(name)} (or HANKWEAVE_${clip(name)}) in the environment; this hank requires it`,
      );
    }
  }
  if (config.globalSystemPromptFile !== undefined && config.globalSystemPromptText !== undefined) {
    error(
      ['globalSystemPromptText'],
      'exclusive_fields',
      'Give globalSystemPromptFile or globalSystemPromptText, not both',
    );
  }

  checkContainerBudget(
    config.overrides?.budget,
    config.hank.map((item) => item.id),
    ['overrides', 'budget'],
    error,
  );

  checkConditions(config, error, warn);

  const order = codonsInOrder(config);
  const seenIds = new Map<string, string>();
  const seenNames = new Map<string, string>();
  const claimId = (id: string, path: PropertyKey[]) => {
    const where = formatJsonPath(path);
    const earlier = seenIds.get(id);
    if (earlier)
      error(
        [...path, 'id'],
        'duplicate_id',
        `Duplicate id ${quote(id)} (also used at ${earlier}); ids must be unique across the hank, loops included`,
      );
    else seenIds.set(id, where);
  };
  const rawItems = (raw as { hank?: unknown[] } | undefined)?.hank ?? [];
  for (const [index, item] of config.hank.entries()) {
    if (isLoopConfig(item)) {
      claimId(item.id, ['hank', index]);
      checkLoop(item, ['hank', index], rawItems[index], error, warn);
    }
    if (isParallelConfig(item)) {
      claimId(item.id, ['hank', index]);
      // The resolver's execution id: no codon may take it.
      seenIds.set(`${item.id}.resolve`, `${formatJsonPath(['hank', index])} (its resolver)`);
      checkBlock(item, ['hank', index], rawItems[index], claimId, error, warn);
    }
  }

  for (const [position, { codon, path, loop }] of order.entries()) {
    claimId(codon.id, path);
    const earlierName = seenNames.get(codon.name);
    if (earlierName)
      warn(
        [...path, 'name'],
        'duplicate_name',
        `The name ${quote(codon.name)} is also used at ${earlierName}`,
      );
    else seenNames.set(codon.name, formatJsonPath(path));

    if ((codon.promptFile === undefined) === (codon.promptText === undefined)) {
      error(
        [...path, 'promptText'],
        'prompt_required',
        'Give exactly one of promptFile or promptText',
      );
    }
    if (codon.appendSystemPromptFile !== undefined && codon.appendSystemPromptText !== undefined) {
      error(
        [...path, 'appendSystemPromptText'],
        'exclusive_fields',
        'Give appendSystemPromptFile or appendSystemPromptText, not both',
      );
    }
    if (loop?.progressFile !== undefined && codon.progressFile !== undefined) {
      error(
        [...path, 'progressFile'],
        'exclusive_fields',
        "This codon is in a loop that has a progressFile; its codons share the loop's file, so remove this one",
      );
    }
    if (codon.retryConfig && codon.onFailure !== 'retry') {
      error(
        [...path, 'retryConfig'],
        'retry_config_without_retry',
        'retryConfig only applies with onFailure: "retry"; set onFailure to "retry" or remove retryConfig',
      );
    }
    if (/\s/.test(codon.model)) {
      error(
        [...path, 'model'],
        'invalid_model',
        `${quote(codon.model)} is not a model id (e.g. "sonnet" or "anthropic/claude-sonnet-4-5")`,
      );
    }
    for (const [opIndex, op] of (codon.rigSetup ?? []).entries()) {
      if (op.type === 'command' && looksDangerous(op.command.run)) {
        warn(
          [...path, 'rigSetup', opIndex, 'command', 'run'],
          'dangerous_command',
          `${quote(op.command.run)} looks destructive; check it before running this hank`,
        );
      }
      if (loop && !op.allowFailure) {
        warn(
          [...path, 'rigSetup', opIndex],
          'loop_rig_without_allow_failure',
          'A rig operation inside a loop runs every iteration; consider allowFailure: true',
        );
      }
    }
    checkSentinelIds(codon.sentinels ?? [], path, error);

    if (codon.continuationMode !== 'continue-previous') continue;
    const boundary = blockBoundaryBefore(order, position);
    if (boundary) {
      error(
        [...path, 'continuationMode'],
        'continues_across_block',
        boundary === 'branch'
          ? 'The first codon of a parallel branch starts in its own worktree, with no session to continue; start it fresh'
          : 'The codon before this one is a parallel block, which ends with a merge, not with one session to continue; start this codon fresh',
      );
      continue;
    }
    const predecessors = predecessorsOf(order, position);
    if (predecessors.length === 0) {
      warn(
        [...path, 'continuationMode'],
        'first_codon_continues',
        'The first codon has no previous session to continue; it will fail unless this execution already ran a codon',
      );
    }
    for (const previous of predecessors) {
      const previousPath = formatJsonPath(previous.path);
      if (previous.codon.model !== codon.model) {
        error(
          [...path, 'model'],
          'continuation_model_mismatch',
          `continue-previous resumes the session of ${previousPath}, which uses model ${quote(previous.codon.model)}; use the same model`,
        );
      }
      if (previous.codon.exhaustWithPrompt !== undefined) {
        error(
          [...path, 'continuationMode'],
          'continues_exhausted_session',
          `${previousPath} uses exhaustWithPrompt, so its session ends exhausted; start this codon fresh`,
        );
      }
      if (
        previous.loop &&
        previous.loop !== loop &&
        previous.loop.terminateOn.type === 'contextExceeded'
      ) {
        error(
          [...path, 'continuationMode'],
          'continues_exhausted_session',
          `The loop before this codon ends when its context is exceeded; start this codon fresh`,
        );
      }
      if (codonTrackedPatterns(previous.codon).length === 0) {
        warn(
          [...path, 'continuationMode'],
          'previous_untracked',
          `${previousPath} has no checkpointedFiles, so a rollback cannot restore what this session builds on`,
        );
      }
      if (previous.codon.onFailure === 'ignore') {
        warn(
          [...path, 'continuationMode'],
          'continues_ignored_failure',
          `${previousPath} may fail and be ignored, leaving no session to continue`,
        );
      }
    }
  }
  checkBudgetWarnings(config, warn);
  return { errors, warnings };
}

function checkSentinelIds(
  entries: readonly CodonSentinelEntry[],
  path: PropertyKey[],
  error: Report,
): void {
  const ids = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const config = entry.sentinelConfig;
    if (typeof config === 'string') continue;
    const id = config.id;
    if (ids.has(id))
      error(
        [...path, 'sentinels', index, 'sentinelConfig', 'id'],
        'duplicate_sentinel_id',
        `Sentinel id ${quote(id)} is used twice in this codon`,
      );
    ids.add(id);
  }
}

function checkLoop(
  loop: LoopConfig,
  path: PropertyKey[],
  rawLoop: unknown,
  error: Report,
  warn: Report,
): void {
  const rawCodons = (rawLoop as { codons?: { onFailure?: unknown }[] } | undefined)?.codons ?? [];
  for (const [codonIndex, codon] of loop.codons.entries()) {
    if (loop.terminateOn.type === 'contextExceeded' && codon.continuationMode === 'fresh') {
      error(
        [...path, 'codons', codonIndex, 'continuationMode'],
        'fresh_in_context_loop',
        'A contextExceeded loop keeps one session going; its codons must use continue-previous',
      );
    }
    if (rawCodons[codonIndex]?.onFailure === undefined) {
      warn(
        [...path, 'codons', codonIndex, 'onFailure'],
        'loop_codon_aborts',
        'A failure of this loop codon stops the whole hank (onFailure defaults to "abort"); set onFailure explicitly',
      );
    }
  }
  const terminate = loop.terminateOn;
  if (terminate.type === 'plateau') {
    if (terminate.minIterations > terminate.maxIterations) {
      error(
        [...path, 'terminateOn', 'minIterations'],
        'invalid_value',
        'minIterations cannot exceed maxIterations',
      );
    }
    if (terminate.consensus > terminate.maxIterations) {
      error(
        [...path, 'terminateOn', 'consensus'],
        'invalid_value',
        'consensus cannot exceed maxIterations',
      );
    }
  }
  checkContainerBudget(
    loop.budget,
    loop.codons.map((codon) => codon.id),
    [...path, 'budget'],
    error,
  );
}

/**
 * A parallel block's own rules: its branch ids and the ids inside its branches are claimed
 * (unique across the hank), its loops checked as top-level loops are, its budget's children are
 * its branches (and its resolver), and its resolver starts fresh with no condition.
 */
function checkBlock(
  block: ParallelConfig,
  path: PropertyKey[],
  rawBlock: unknown,
  claimId: (id: string, path: PropertyKey[]) => void,
  error: Report,
  warn: Report,
): void {
  const rawBranches =
    (rawBlock as { branches?: { items?: unknown[] }[] } | undefined)?.branches ?? [];
  for (const [branchIndex, branch] of block.branches.entries()) {
    const branchPath = [...path, 'branches', branchIndex];
    claimId(branch.id, branchPath);
    for (const [at, item] of branch.items.entries()) {
      if (!isLoopConfig(item)) continue;
      claimId(item.id, [...branchPath, 'items', at]);
      checkLoop(
        item,
        [...branchPath, 'items', at],
        rawBranches[branchIndex]?.items?.[at],
        error,
        warn,
      );
    }
  }
  const resolver = resolverOf(block);
  const resolverPath = [...path, 'merge', 'onConflict', 'resolver'];
  if (resolver && resolver.continuationMode !== 'fresh') {
    error(
      [...resolverPath, 'continuationMode'],
      'invalid_resolver',
      'The resolver starts after the merge, with no session of a branch to continue; set continuationMode to "fresh"',
    );
  }
  if (resolver?.when) {
    error(
      [...resolverPath, 'when'],
      'invalid_resolver',
      'The resolver runs exactly when the merge conflicts; remove its condition',
    );
  }
  checkContainerBudget(
    block.budget,
    [...block.branches.map((branch) => branch.id), ...(resolver ? [resolver.id] : [])],
    [...path, 'budget'],
    error,
  );
}

/** Container budget rules (reference §1.7). */
function checkContainerBudget(
  budget: ContainerBudget | undefined,
  childIds: string[],
  path: PropertyKey[],
  error: Report,
): void {
  if (!budget) return;
  const shares = budget.shares ?? {};
  const proportional = budget.allocation !== 'shared';
  if (Object.keys(shares).length > 0 && !proportional) {
    error(
      [...path, 'shares'],
      'invalid_budget',
      'shares need allocation "proportional" or "proportional-strict"',
    );
  }
  if (proportional && budget.maxDollars === undefined) {
    error(
      [...path, 'maxDollars'],
      'invalid_budget',
      `allocation "${budget.allocation}" needs maxDollars`,
    );
  }
  const total = Object.values(shares).reduce((sum, share) => sum + share, 0);
  if (total > 1 + 1e-9)
    error(
      [...path, 'shares'],
      'invalid_budget',
      `shares add up to ${total}; they must add up to at most 1`,
    );
  for (const key of Object.keys(shares)) {
    if (!childIds.includes(key)) {
      error(
        [...path, 'shares', key],
        'invalid_budget',
        `${quote(key)} is not a child of this budget (children: ${listNames(childIds)})`,
      );
    }
  }
}
