import { type CodonConfig, type HankConfig, isLoopConfig, type LoopConfig } from '@hankweave/types';

/** A codon in hank order, with where it sits in hank.json. */
export interface LocatedCodon {
  codon: CodonConfig;
  path: PropertyKey[];
  loop?: LoopConfig;
  indexInLoop?: number;
}

/** Every codon in hank order (one iteration per loop), with its JSON path. */
export function codonsInOrder(config: HankConfig): LocatedCodon[] {
  const located: LocatedCodon[] = [];
  for (const [index, item] of config.hank.entries()) {
    if (isLoopConfig(item)) {
      for (const [indexInLoop, codon] of item.codons.entries()) {
        located.push({
          codon,
          path: ['hank', index, 'codons', indexInLoop],
          loop: item,
          indexInLoop,
        });
      }
    } else {
      located.push({ codon: item, path: ['hank', index] });
    }
  }
  return located;
}

/**
 * The codons whose session a `continue-previous` codon may resume: the one before it in the plan,
 * and for the first codon of a loop also the loop's last codon (iteration n continues n-1).
 */
export function predecessorsOf(order: LocatedCodon[], position: number): LocatedCodon[] {
  const current = order[position] as LocatedCodon;
  const before = order[position - 1];
  const predecessors = before ? [before] : [];
  const loop = current.loop;
  if (loop && current.indexInLoop === 0 && loop.codons.length > 1) {
    const last = order.find(
      (entry) => entry.loop === loop && entry.indexInLoop === loop.codons.length - 1,
    );
    if (last) predecessors.push(last);
  }
  return predecessors;
}
