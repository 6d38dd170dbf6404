import {
  type BranchItem,
  type CodonConfig,
  type HankConfig,
  isLoopConfig,
  isParallelConfig,
  type LoopConfig,
  type ParallelBranch,
  type ParallelConfig,
  resolverOf,
} from '@hankweave/types';

/** A codon in hank order, with where it sits in hank.json. */
export interface LocatedCodon {
  codon: CodonConfig;
  path: PropertyKey[];
  /** The index of its top-level hank item. */
  itemIndex: number;
  loop?: LoopConfig;
  indexInLoop?: number;
  /** The parallel block it belongs to (in a branch, or its resolver). */
  block?: ParallelConfig;
  /** Its branch, in a parallel block. */
  branch?: ParallelBranch;
  /** True for a block's resolver codon. */
  resolver?: true;
}

/**
 * The sequence a located codon runs in: the top level, a branch of a block, or a block's
 * resolver. `continue-previous` and "the codon before" only make sense within one sequence.
 */
export function sequenceOf(located: LocatedCodon): string {
  if (!located.block) return '';
  return located.resolver
    ? `${located.block.id}.resolve`
    : `${located.block.id}/${located.branch?.id}`;
}

function locateItem(
  item: BranchItem,
  path: PropertyKey[],
  common: Pick<LocatedCodon, 'itemIndex' | 'block' | 'branch'>,
  located: LocatedCodon[],
): void {
  if (isLoopConfig(item)) {
    for (const [indexInLoop, codon] of item.codons.entries()) {
      located.push({
        ...common,
        codon,
        path: [...path, 'codons', indexInLoop],
        loop: item,
        indexInLoop,
      });
    }
  } else located.push({ ...common, codon: item, path });
}

/**
 * Every codon in hank order (one iteration per loop), with its JSON path: a parallel block's
 * codons branch by branch, then its resolver.
 */
export function codonsInOrder(config: HankConfig): LocatedCodon[] {
  const located: LocatedCodon[] = [];
  for (const [index, item] of config.hank.entries()) {
    if (!isParallelConfig(item)) {
      locateItem(item, ['hank', index], { itemIndex: index }, located);
      continue;
    }
    for (const [branchIndex, branch] of item.branches.entries()) {
      for (const [at, inner] of branch.items.entries()) {
        locateItem(
          inner,
          ['hank', index, 'branches', branchIndex, 'items', at],
          { itemIndex: index, block: item, branch },
          located,
        );
      }
    }
    const resolver = resolverOf(item);
    if (resolver) {
      located.push({
        codon: resolver,
        path: ['hank', index, 'merge', 'onConflict', 'resolver'],
        itemIndex: index,
        block: item,
        resolver: true,
      });
    }
  }
  return located;
}

/**
 * The codons whose session a `continue-previous` codon may resume: the one before it in its
 * sequence (the top level, or its branch), and for the first codon of a loop also the loop's last
 * codon (iteration n continues n-1). A codon before it in hank order but in another sequence (a
 * block's boundary lies between them) is none: see {@link acrossBlockOf}.
 */
export function predecessorsOf(order: LocatedCodon[], position: number): LocatedCodon[] {
  const current = order[position] as LocatedCodon;
  const before = order[position - 1];
  const predecessors = before && sequenceOf(before) === sequenceOf(current) ? [before] : [];
  const loop = current.loop;
  if (loop && current.indexInLoop === 0 && loop.codons.length > 1) {
    const last = order.find(
      (entry) => entry.loop === loop && entry.indexInLoop === loop.codons.length - 1,
    );
    if (last) predecessors.push(last);
  }
  return predecessors;
}

/**
 * Where a parallel block's boundary lies right before a codon: `branch` for the first codon of a
 * branch (it starts in its own worktree, with no session to continue), `after-block` for the
 * first codon after a block (the block ends with a merge, not with one session). Undefined
 * otherwise, resolvers included (they have their own rule).
 */
export function blockBoundaryBefore(
  order: LocatedCodon[],
  position: number,
): 'branch' | 'after-block' | undefined {
  const current = order[position] as LocatedCodon;
  if (current.resolver) return undefined;
  const before = order[position - 1];
  if (current.block) {
    return !before || sequenceOf(before) !== sequenceOf(current) ? 'branch' : undefined;
  }
  return before?.block ? 'after-block' : undefined;
}
