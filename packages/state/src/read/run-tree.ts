import type { HankweaveState, Run } from '@hankweave/types';

/** A run and the runs that continue it (rollbacks, retries, resumes). */
export interface RunTreeNode {
  run: Run;
  /** Continuations of this run, oldest first. */
  children: RunTreeNode[];
}

/**
 * The runs as a forest (seed 000 "Run Structure": runs form a tree through continuations). Roots
 * are fresh runs and continuations whose source run is not in the state; everything is oldest
 * first. A cycle (only possible in an edited file) is broken at its oldest run.
 */
export const runTree = (state: HankweaveState): RunTreeNode[] => {
  const chronological = [...state.runs].reverse();
  const nodes = new Map<string, RunTreeNode>();
  for (const run of chronological) nodes.set(run.runId, { run, children: [] });
  const parentOf = (run: Run): RunTreeNode | undefined =>
    run.startingConditions.type === 'continuation' &&
    run.startingConditions.source.runId !== run.runId
      ? nodes.get(run.startingConditions.source.runId)
      : undefined;

  const roots: RunTreeNode[] = [];
  const attached = new Set<string>();
  for (const run of chronological) {
    const node = nodes.get(run.runId) as RunTreeNode;
    const parent = parentOf(run);
    if (parent === undefined) {
      roots.push(node);
      attached.add(run.runId);
    } else {
      parent.children.push(node);
    }
  }
  // Anything not reachable from a root sits on a cycle: detach its oldest run into a root.
  const reach = (node: RunTreeNode): void => {
    for (const child of node.children) {
      if (attached.has(child.run.runId)) continue;
      attached.add(child.run.runId);
      reach(child);
    }
  };
  for (const root of roots) reach(root);
  for (const run of chronological) {
    if (attached.has(run.runId)) continue;
    const node = nodes.get(run.runId) as RunTreeNode;
    const parent = parentOf(run);
    if (parent !== undefined) parent.children = parent.children.filter((child) => child !== node);
    roots.push(node);
    attached.add(run.runId);
    reach(node);
  }
  return roots;
};
