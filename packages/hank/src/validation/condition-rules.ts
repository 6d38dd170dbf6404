import { type Condition, conditionCodonIds, type HankConfig, suggestKey } from '@hankweave/types';
import type { HankIssueCode } from './hank-issue.js';
import { clip } from './input-limits.js';
import { codonsInOrder } from './plan-order.js';

type Report = (path: PropertyKey[], code: HankIssueCode, message: string) => void;

const quote = (text: string) => JSON.stringify(clip(text));

/** Every file path a condition reads in agentRoot, with its key (`exists` or `json`). */
function conditionPaths(condition: Condition): { key: 'exists' | 'json'; path: string }[] {
  if ('exists' in condition) return [{ key: 'exists', path: condition.exists }];
  if ('json' in condition) return [{ key: 'json', path: condition.json }];
  if ('all' in condition) return condition.all.flatMap(conditionPaths);
  if ('any' in condition) return condition.any.flatMap(conditionPaths);
  if ('not' in condition) return conditionPaths(condition.not);
  return [];
}

/** Why an agentRoot path a condition reads is refused, or undefined. */
function pathProblem(path: string): string | undefined {
  if (path.includes('\0')) return 'has a NUL byte';
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) {
    return 'is absolute; conditions read files relative to agentRoot';
  }
  if (path.split(/[\\/]/).includes('..')) return 'leaves agentRoot (..)';
  return undefined;
}

/**
 * The rules of `when` (issue 36): a condition names codons of this hank that can have run before
 * it is evaluated (an earlier item, or, inside a loop, any codon of the same loop: an earlier
 * iteration ran it), and reads files inside agentRoot only. A `continue-previous` codon right
 * after a conditional one is warned about: a skipped codon leaves no session to continue.
 */
export function checkConditions(config: HankConfig, error: Report, warn: Report): void {
  const order = codonsInOrder(config);
  const allIds = order.map(({ codon }) => codon.id);
  // The ids known before each hank item starts: the codons of every earlier item.
  const before = new Map<number, Set<string>>();
  const seen = new Set<string>();
  for (const [index, item] of config.hank.entries()) {
    before.set(index, new Set(seen));
    for (const codon of item.type === 'loop' ? item.codons : [item]) seen.add(codon.id);
  }

  const check = (
    condition: Condition,
    path: PropertyKey[],
    itemIndex: number,
    sameLoop: readonly string[],
  ) => {
    const reachable = before.get(itemIndex) ?? new Set<string>();
    for (const id of conditionCodonIds(condition)) {
      if (reachable.has(id) || sameLoop.includes(id)) continue;
      if (!allIds.includes(id)) {
        const hint = suggestKey(id, allIds);
        error(
          [...path, 'when'],
          'unknown_codon',
          `The condition names codon ${quote(id)}, which this hank does not have${hint ? `; did you mean ${quote(hint)}?` : ''}`,
        );
      } else {
        error(
          [...path, 'when'],
          'condition_order',
          `The condition names codon ${quote(id)}, which cannot have run before this is evaluated; name an earlier codon`,
        );
      }
    }
    for (const { key, path: file } of conditionPaths(condition)) {
      const problem = pathProblem(file);
      if (problem) {
        error([...path, 'when'], 'escapes_agent_root', `${key} ${quote(file)} ${problem}`);
      }
    }
  };

  for (const [index, item] of config.hank.entries()) {
    if (item.type === 'loop') {
      if (item.when) check(item.when, ['hank', index], index, []);
      const loopIds = item.codons.map((codon) => codon.id);
      for (const [at, codon] of item.codons.entries()) {
        if (codon.when) check(codon.when, ['hank', index, 'codons', at], index, loopIds);
      }
    } else if (item.when) {
      check(item.when, ['hank', index], index, []);
    }
  }

  for (const [position, { codon, path }] of order.entries()) {
    const previous = order[position - 1];
    if (codon.continuationMode === 'continue-previous' && previous?.codon.when) {
      warn(
        [...path, 'continuationMode'],
        'continues_conditional_codon',
        `The codon before this one runs only when its condition holds; when it is skipped there is no session to continue and this codon fails. Start it fresh, or give it the same condition`,
      );
    }
  }
}
