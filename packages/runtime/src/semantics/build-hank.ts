import { type BlockShape, SHARED_FILE } from './block-shapes.js';
import type { CodonShape, ItemShape, TerminateOn, WhenShape } from './hank-shapes.js';

const MODEL = 'claude-sonnet-4-5';

/**
 * The `when` of a codon (or loop, or block) on the codon `back` places from the end of `allowed`,
 * the ids it may name (none that far back: no `when`).
 */
function whenOf(shape: WhenShape | null, allowed: readonly string[]): Record<string, unknown> {
  const target = shape ? allowed[allowed.length - shape.back] : undefined;
  if (!shape || target === undefined) return {};
  const condition = { codon: target, status: shape.statuses };
  return { when: shape.negate ? { not: condition } : condition };
}

/**
 * hank.json from shapes, with the validation rules applied where a shape breaks one: a
 * contextExceeded loop's codons continue the previous session; a codon after an extending codon
 * or after a contextExceeded loop starts fresh; an extending codon inside a loop of two codons
 * would be continued, so it does not extend there; plateau bounds are ordered. In a block: the
 * first codon of a branch and the codon after the block start fresh (no session crosses a
 * block's boundary), a branch never starts with a contextExceeded loop (its codons continue), a
 * branch codon's `when` names a codon before the block or earlier in its own branch, and the
 * resolver starts fresh with no `when`. Codon ids are `c0`, `c1`, … in hank order, branches
 * included (the resolver is `r{position}`), so they are unique across the hank.
 */
export function buildHank(
  items: ItemShape[],
  hankBudget: unknown,
  block: BlockShape | null,
): unknown {
  let index = 0;
  let previous: { extends: boolean; contextLoop: boolean; boundary?: true } | undefined;
  /** The codon ids so far, in hank order. */
  const ids: string[] = [];
  const codonOf = (
    shape: CodonShape,
    where: {
      contextLoop: boolean;
      loopSize: number;
      allowed?: readonly string[];
      tracked?: readonly string[];
    },
  ) => {
    const position = index++;
    const id = `c${position}`;
    const mustBeFresh =
      previous?.extends === true || previous?.contextLoop === true || previous?.boundary === true;
    const fresh = where.contextLoop ? false : mustBeFresh || shape.fresh;
    const extensions = where.loopSize > 1 ? 0 : shape.extensions;
    const codon: Record<string, unknown> = {
      id,
      name: id,
      model: MODEL,
      continuationMode: fresh ? 'fresh' : 'continue-previous',
      promptText: `Do ${id}.`,
      onFailure: shape.onFailure,
      ...(shape.onFailure === 'retry'
        ? { retryConfig: { maxAttempts: shape.maxAttempts, delayMs: 0 } }
        : {}),
      ...(extensions > 0 ? { exhaustWithPrompt: 'Go on.', maxExtensions: extensions } : {}),
      ...(shape.budget ? { budget: shape.budget } : {}),
      ...whenOf(shape.when, where.allowed ?? ids),
      ...(where.tracked ? { checkpointedFiles: where.tracked } : {}),
    };
    ids.push(id);
    previous = { extends: extensions > 0, contextLoop: false };
    return codon;
  };
  const loopOf = (
    item: { terminateOn: TerminateOn; codons: CodonShape[]; when: WhenShape | null },
    id: string,
    extra: { budget?: unknown; allowed?: string[]; tracked?: readonly string[] },
  ) => {
    const contextLoop = item.terminateOn.type === 'contextExceeded';
    const terminate =
      item.terminateOn.type === 'plateau'
        ? {
            ...item.terminateOn,
            maxIterations: Math.max(item.terminateOn.maxIterations, item.terminateOn.minIterations),
          }
        : item.terminateOn;
    const when = whenOf(item.when, extra.allowed ?? ids);
    const codons = item.codons.map((shape) =>
      codonOf(shape, {
        contextLoop,
        loopSize: item.codons.length,
        ...(extra.allowed ? { allowed: extra.allowed } : {}),
        ...(extra.tracked ? { tracked: extra.tracked } : {}),
      }),
    );
    previous = { extends: previous?.extends ?? false, contextLoop };
    return {
      type: 'loop',
      id,
      name: id,
      terminateOn: terminate,
      codons,
      ...(extra.budget ? { budget: extra.budget } : {}),
      ...when,
    };
  };
  const blockOf = (shape: BlockShape, position: number) => {
    const id = `par${position}`;
    const before = [...ids];
    const when = whenOf(shape.when, before);
    const tracked = shape.writes ? [SHARED_FILE] : undefined;
    const branches = shape.branches.map((branchItems, b) => {
      previous = { extends: false, contextLoop: false, boundary: true };
      const own: string[] = [];
      const items = branchItems.map((item, at) => {
        const allowed = [...before, ...own];
        if (item.kind === 'codon') {
          const codon = codonOf(item.codon, {
            contextLoop: false,
            loopSize: 1,
            allowed,
            ...(tracked ? { tracked } : {}),
          });
          own.push(codon.id as string);
          return codon;
        }
        const terminate: TerminateOn =
          at === 0 && item.terminateOn.type === 'contextExceeded'
            ? { type: 'iterationLimit', limit: 2 }
            : item.terminateOn;
        const loop = loopOf({ ...item, terminateOn: terminate }, `loop${position}b${b}i${at}`, {
          allowed,
          ...(tracked ? { tracked } : {}),
        });
        own.push(...loop.codons.map((codon) => codon.id as string));
        return loop;
      });
      return { id: `par${position}b${b}`, items };
    });
    const resolver = {
      id: `r${position}`,
      name: `r${position}`,
      model: MODEL,
      continuationMode: 'fresh',
      promptText: 'Resolve the conflicts.',
      onFailure: shape.resolver.onFailure,
      ...(shape.resolver.onFailure === 'retry'
        ? { retryConfig: { maxAttempts: shape.resolver.maxAttempts, delayMs: 0 } }
        : {}),
    };
    previous = { extends: false, contextLoop: false, boundary: true };
    return {
      type: 'parallel',
      id,
      name: id,
      branches,
      ...(shape.maxConcurrency !== null ? { maxConcurrency: shape.maxConcurrency } : {}),
      merge: { onConflict: shape.onConflict === 'resolver' ? { resolver } : shape.onConflict },
      ...when,
    };
  };
  const all: (ItemShape | BlockShape)[] = [...items];
  if (block) all.splice(block.at % (items.length + 1), 0, block);
  const hank = all.map((item, position) => {
    if (!('kind' in item)) return blockOf(item, position);
    if (item.kind === 'codon') return codonOf(item.codon, { contextLoop: false, loopSize: 1 });
    return loopOf(item, `loop${position}`, item.budget ? { budget: item.budget } : {});
  });
  return {
    meta: { name: 'semantics', version: '1.0.0' },
    ...(hankBudget ? { overrides: { budget: hankBudget } } : {}),
    hank,
  };
}
