/**
 * Runs numbered in start order (1 = the first run), as people talk about them ("run 3 was the
 * rollback"); run ids are long and only unique, not telling.
 */
import type { RunNode } from '../../api/types.js';

export function runNumbers(tree: readonly RunNode[]): Map<string, number> {
  const all: RunNode[] = [];
  const walk = (nodes: readonly RunNode[]) => {
    for (const node of nodes) {
      all.push(node);
      walk(node.children);
    }
  };
  walk(tree);
  const order = all
    .map((run, index) => ({ run, index, t: Date.parse(run.startTime) }))
    .sort((a, b) => (a.t || 0) - (b.t || 0) || a.index - b.index);
  return new Map(order.map(({ run }, index) => [run.runId, index + 1]));
}
