import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interpret } from '@hankweave/hank';
import { type HankConfig, isLoopConfig, isParallelConfig } from '@hankweave/types';
import { expect } from 'vitest';
import { comparable } from '../testing/semantics/observe.js';
import { tableOutcome } from '../testing/semantics/outcome-table.js';
import { playCase } from '../testing/semantics/play-case.js';
import type { GeneratedCase } from './semantics-arbitraries.js';

// tmpfs when there is one: the cases are about decisions, not about the disk.
const TMP_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** The block and branch of every branch codon of the hank (by hank.json id). */
function branchesOf(config: HankConfig): Map<string, { blockId: string; branchId: string }> {
  const branches = new Map<string, { blockId: string; branchId: string }>();
  for (const item of config.hank) {
    if (!isParallelConfig(item)) continue;
    for (const branch of item.branches) {
      for (const inner of branch.items) {
        for (const codon of isLoopConfig(inner) ? inner.codons : [inner]) {
          branches.set(codon.id, { blockId: item.id, branchId: branch.id });
        }
      }
    }
  }
  return branches;
}

/**
 * The interleaving the runtime chose, as the interpreter's `schedule`: for each block, the
 * branches of its codons' executions in the order they ended (less those its condition skipped
 * with it, which the interpreter records without asking the schedule). The interpreter runs one attempt
 * of one branch at a time, so the runtime's concurrent attempts are fed to it in the order they
 * reached their final status; its answer for a branch is then the runtime's, and any difference
 * in which codons a branch ran, or in what order, still shows. An answer not among the ready
 * branches (or none left) lets the interpreter take its default, and the comparison tells.
 */
function scheduleOf(
  config: HankConfig,
  scheduled: readonly string[],
): (blockId: string, ready: readonly string[]) => string {
  const branches = branchesOf(config);
  const queues = new Map<string, string[]>();
  for (const codonId of scheduled) {
    const where = branches.get(codonId.split('#')[0] as string);
    if (!where) continue;
    const queue = queues.get(where.blockId) ?? [];
    queue.push(where.branchId);
    queues.set(where.blockId, queue);
  }
  return (blockId, ready) => queues.get(blockId)?.shift() ?? (ready[0] as string);
}

/**
 * Plays a case on real runtimes and expects what they executed, how each run stopped, how each
 * loop ended and how each parallel block merged to equal what the reference interpreter says.
 */
export async function checkAgainstInterpreter(semantics: GeneratedCase): Promise<void> {
  const dir = await mkdtemp(join(TMP_ROOT, 'semantics-'));
  try {
    const played = await playCase(semantics, dir);
    const expected = interpret({
      hank: semantics.config,
      outcome: tableOutcome(semantics.outcomes),
      steps: semantics.steps,
      ...(semantics.maxCost !== undefined ? { maxCost: semantics.maxCost } : {}),
      schedule: scheduleOf(semantics.config, played.scheduled),
      // Whether a merge conflicts is the checkpoint engine's three-way merge of what the branches
      // wrote (the end-to-end tests check it file by file): the interpreter is told what the
      // runtime's merge met, and must then agree on what follows (fail and stop, settle by branch
      // order, run the resolver, merge again after a resume, never re-run a finished branch).
      mergeConflicts: (blockId, attempt) => {
        const merge = played.merges.filter((candidate) => candidate.blockId === blockId)[attempt];
        return merge !== undefined && merge.result !== 'clean';
      },
    });
    expect(played.startedAfterStop).toEqual([]);
    expect(played.executions).toEqual(expected.executions.map(comparable));
    expect(played.stops).toEqual(expected.stops);
    expect(played.loops).toEqual(expected.loops);
    expect(played.merges).toEqual(
      expected.merges.map(({ blockId, result, session, afterExecutions }) => ({
        blockId,
        result,
        session,
        afterExecutions,
      })),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
