import { type RunTreeNode, runCost, runTree } from '@hankweave/state';
import { isInterruption } from '@hankweave/types';
import type { RunNode } from '../../src/api/types.js';

function toNode({ run, children }: RunTreeNode): RunNode {
  const start = run.startingConditions;
  const continuation = start.type === 'continuation' ? start : undefined;
  return {
    runId: run.runId,
    status: run.status,
    startTime: run.startTime,
    ...(run.endTime ? { endTime: run.endTime } : {}),
    // A continuation written without a reason (older runtimes) is a plain continue.
    reason: continuation ? (continuation.reason ?? 'continue') : 'fresh',
    ...(interruptedRun(run) ? { interrupted: true } : {}),
    ...(continuation
      ? {
          from: {
            runId: continuation.source.runId,
            afterCodon: continuation.source.afterCodon,
            checkpointSha: continuation.source.checkpointSha,
          },
        }
      : {}),
    codonCount: run.codons.length,
    costUsd: runCost(run),
    children: children.map(toNode),
  };
}

/** A failed run whose last codon an interruption stopped (Ctrl-C, SIGTERM). */
function interruptedRun(run: RunTreeNode['run']): boolean {
  const last = run.codons.at(-1);
  return run.status === 'failed' && last?.status === 'failed' && isInterruption(last.failureReason);
}

/** The runs as the state package's run tree (oldest first), in wire form. */
export function runNodes(state: Parameters<typeof runTree>[0]): RunNode[] {
  return runTree(state).map(toNode);
}
