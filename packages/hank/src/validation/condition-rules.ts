import {
  type BranchItem,
  type Condition,
  conditionCodonIds,
  conditionFiles,
  type HankConfig,
  isLoopConfig,
  isParallelConfig,
  itemCodons,
  suggestKey,
} from '@hankweave/types';
import type { HankIssueCode } from './hank-issue.js';
import { clip } from './input-limits.js';
import { codonsInOrder, sequenceOf } from './plan-order.js';

type Report = (path: PropertyKey[], code: HankIssueCode, message: string) => void;

const quote = (text: string) => JSON.stringify(clip(text));

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
 * iteration ran it), and reads files inside agentRoot only. In a parallel block, a codon or loop
 * of a branch may name what ran before the block and the earlier items of its own branch, never
 * a codon of a sibling branch (branches run concurrently); the block's own condition names what
 * ran before it; after the block, any codon inside it may be named. A `continue-previous` codon
 * right after a conditional one is warned about: a skipped codon leaves no session to continue.
 */
export function checkConditions(config: HankConfig, error: Report, warn: Report): void {
  const order = codonsInOrder(config);
  const allIds = order.map(({ codon }) => codon.id);
  // The ids known before each hank item starts: the codons of every earlier item.
  const before = new Map<number, Set<string>>();
  const seen = new Set<string>();
  for (const [index, item] of config.hank.entries()) {
    before.set(index, new Set(seen));
    for (const codon of itemCodons(item)) seen.add(codon.id);
  }

  const check = (
    condition: Condition,
    path: PropertyKey[],
    itemIndex: number,
    also: readonly string[],
    siblings: ReadonlyMap<string, string> = new Map(),
  ) => {
    const reachable = before.get(itemIndex) ?? new Set<string>();
    for (const id of conditionCodonIds(condition)) {
      if (reachable.has(id) || also.includes(id)) continue;
      const sibling = siblings.get(id);
      if (!allIds.includes(id)) {
        const hint = suggestKey(id, allIds);
        error(
          [...path, 'when'],
          'unknown_codon',
          `The condition names codon ${quote(id)}, which this hank does not have${hint ? `; did you mean ${quote(hint)}?` : ''}`,
        );
      } else if (sibling !== undefined) {
        error(
          [...path, 'when'],
          'condition_order',
          `The condition names codon ${quote(id)} of the sibling branch ${quote(sibling)}, which runs concurrently with this one, so its status is not known here; name a codon before the block or earlier in this branch, or move the condition after the block`,
        );
      } else {
        error(
          [...path, 'when'],
          'condition_order',
          `The condition names codon ${quote(id)}, which cannot have run before this is evaluated; name an earlier codon`,
        );
      }
    }
    for (const { key, path: file } of conditionFiles(condition)) {
      const problem = pathProblem(file);
      if (problem) {
        error([...path, 'when'], 'escapes_agent_root', `${key} ${quote(file)} ${problem}`);
      }
    }
  };

  /** Checks the conditions of a codon or loop; `earlier` are ids it may name besides `before`. */
  const checkItem = (
    item: BranchItem,
    itemPath: PropertyKey[],
    itemIndex: number,
    earlier: readonly string[],
    siblings?: ReadonlyMap<string, string>,
  ) => {
    if (isLoopConfig(item)) {
      if (item.when) check(item.when, itemPath, itemIndex, earlier, siblings);
      const loopIds = item.codons.map((codon) => codon.id);
      for (const [inner, codon] of item.codons.entries()) {
        if (!codon.when) continue;
        const path = [...itemPath, 'codons', inner];
        check(codon.when, path, itemIndex, [...earlier, ...loopIds], siblings);
      }
    } else if (item.when) {
      check(item.when, itemPath, itemIndex, earlier, siblings);
    }
  };

  for (const [index, item] of config.hank.entries()) {
    if (!isParallelConfig(item)) {
      checkItem(item, ['hank', index], index, []);
      continue;
    }
    if (item.when) check(item.when, ['hank', index], index, []);
    for (const [branchIndex, branch] of item.branches.entries()) {
      const siblings = new Map<string, string>();
      for (const other of item.branches) {
        if (other === branch) continue;
        for (const codon of other.items.flatMap(itemCodons)) siblings.set(codon.id, other.id);
      }
      const earlier: string[] = [];
      for (const [at, inner] of branch.items.entries()) {
        checkItem(
          inner,
          ['hank', index, 'branches', branchIndex, 'items', at],
          index,
          earlier,
          siblings,
        );
        earlier.push(...itemCodons(inner).map((codon) => codon.id));
      }
    }
  }

  for (const [position, located] of order.entries()) {
    const { codon, path } = located;
    const previous = order[position - 1];
    if (
      codon.continuationMode === 'continue-previous' &&
      previous?.codon.when &&
      sequenceOf(previous) === sequenceOf(located)
    ) {
      warn(
        [...path, 'continuationMode'],
        'continues_conditional_codon',
        `The codon before this one runs only when its condition holds; when it is skipped there is no session to continue and this codon fails. Start it fresh, or give it the same condition`,
      );
    }
  }
}
