import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { MergeConflict, MergeResult } from '@hankweave/checkpoints';
import { findSymlinkOnPath, sleep } from '@hankweave/durable-io';
import { currentRun } from '@hankweave/state';
import type { ExecutionCodonEntry, ParallelConfig } from '@hankweave/types';
import { type BudgetGate, budgetHalt } from '../budget/budget-gate.js';
import { patternsUpTo, resolveTracked } from '../codon/tracked-files.js';
import { RuntimeError } from '../errors.js';
import { checkpointListing, listAgentRoot, recordListing } from '../rollback/checkpoint-listing.js';
import { info, reportError, transition } from '../runtime/runtime-context.js';
import type { BlockHost, BlockOutcome } from './block-host.js';
import { branchProgress, resolvedCheckpoint } from './block-lanes.js';
import { recordMerge } from './merge-record.js';

/** How much of a conflicted file's marked text the error event carries. */
const CONFLICT_TEXT_IN_EVENT = 4000;

/**
 * Merges a block's branches back into agentRoot: a three-way merge of each branch's newest
 * checkpoint against the block's base, folded in block order (`CheckpointEngine.merge`).
 * Clean: a `merge` checkpoint with the base and every branch as parents, restored into
 * agentRoot, then the merge record. A conflict: with `fail`, the merge is recorded failed with
 * every conflicted file and both sides, and the run stops (a resume merges again); with
 * `ordered`, branch order wins and each settlement is reported; with a resolver, branch order is
 * written, text conflicts get diff3 markers, and the resolver codon runs in agentRoot with the
 * list of conflicts in its prompt; its ending is the merge's.
 */
export async function mergeBlock(
  host: BlockHost,
  block: ParallelConfig,
  base: string,
): Promise<BlockOutcome> {
  const { context } = host;
  const started = Date.now();
  const plan = context.store.state.executionPlan;
  const mergeEntry = plan.find((entry) => entry.codonId === block.id);
  const run = currentRun(context.store.state);
  if (!mergeEntry || !run) {
    throw new RuntimeError(
      'RUNTIME_INTERNAL',
      `Block ${block.id} has no merge entry in the plan or no run is open; restart the runtime`,
      { details: { blockId: block.id } },
    );
  }
  const resolverEntry = plan.find(
    (entry) =>
      entry.parallelContext?.blockId === block.id && entry.parallelContext.role === 'resolver',
  );
  // A resolver that already settled the merge (a crash came before the merge record).
  const settled = resolverEntry && resolvedCheckpoint(context, resolverEntry);
  if (settled) {
    recordMerge(context, {
      runId: run.runId,
      entry: mergeEntry,
      hint: host.hint,
      ending: { status: 'completed', checkpointSha: settled },
    });
    return { kind: 'next' };
  }
  const branches = block.branches.map((branch) => ({
    name: branch.id,
    ref: branchProgress(context.store.state, block.id, branch.id).checkpoint ?? base,
  }));
  const onConflict = block.merge.onConflict;
  let result: MergeResult = await context.engine.merge({
    base,
    branches,
    policy: onConflict === 'ordered' ? 'ordered' : 'fail',
  });
  let conflicts: MergeConflict[] = [];
  if (!result.ok) {
    conflicts = result.conflicts;
    if (onConflict === 'fail') {
      const message = conflictMessage(block, conflicts);
      reportError(context, message, {
        severity: 'codon',
        codon: block.id,
        code: 'MERGE_CONFLICT',
        context: { blockId: block.id, conflicts: conflicts.map(conflictView) },
      });
      recordMerge(context, {
        runId: run.runId,
        entry: mergeEntry,
        hint: host.hint,
        ending: {
          status: 'failed',
          failureReason: { type: 'unknown', retriable: false, message },
        },
      });
      host.halt('codon failure');
      return { kind: 'stopped' };
    }
    // The resolver is a codon like any other: with the hank's budget spent it does not run, and
    // the merge stays a conflict that a resume meets again (the interpreter's rule).
    const gate: BudgetGate = resolverEntry
      ? host.budgetGate(context, resolverEntry)
      : { kind: 'run' };
    if (gate.kind === 'stop') {
      const message = `${conflictMessage(block, conflicts)}. The budget is spent, so resolver ${resolverEntry?.codonId} does not run`;
      reportError(context, message, { severity: 'codon', codon: block.id, code: 'MERGE_CONFLICT' });
      recordMerge(context, {
        runId: run.runId,
        entry: mergeEntry,
        hint: host.hint,
        ending: { status: 'failed', failureReason: { type: 'unknown', retriable: false, message } },
      });
      host.halt(budgetHalt(gate).reason);
      return { kind: 'stopped' };
    }
    result = await context.engine.merge({ base, branches, policy: 'ordered' });
    if (!result.ok)
      throw new RuntimeError('RUNTIME_INTERNAL', 'An ordered merge reported conflicts');
  }
  const head = await context.engine.head();
  const parents = [...new Set([head.sha, base, ...(await resolveAll(host, branches))])];
  const commit = await context.engine.commitMerge({
    tree: result.tree,
    parents,
    runId: run.runId,
    codonId: block.id,
    codonName: block.name,
    durationMs: Date.now() - started,
  });
  await restoreMerged(host, commit.sha, block.id);
  for (const settled of result.resolved) {
    info(
      context,
      `Merge of ${block.name}: ${settled.path} (${settled.kind}) kept from branch ${settled.winner}, dropped from ${settled.others.join(', ')}`,
    );
  }
  if (conflicts.length === 0 || !resolverEntry) {
    recordMerge(context, {
      runId: run.runId,
      entry: mergeEntry,
      hint: host.hint,
      ending: { status: 'completed', checkpointSha: commit.sha },
      checkpoint: { sha: commit.sha, branch: commit.branch },
    });
    info(
      context,
      `Parallel block ${block.name} merged ${block.branches.length} branches into agentRoot (${result.changed.length} file(s) changed, checkpoint ${commit.sha.slice(0, 7)})`,
    );
    return { kind: 'next' };
  }
  return resolve(host, {
    block,
    mergeEntry,
    resolverEntry,
    conflicts,
    merged: { sha: commit.sha, branch: commit.branch },
  });
}

/** The conflicts' marked text in agentRoot, then the resolver codon; its ending is the merge's. */
async function resolve(
  host: BlockHost,
  input: {
    block: ParallelConfig;
    mergeEntry: ExecutionCodonEntry;
    resolverEntry: ExecutionCodonEntry;
    conflicts: MergeConflict[];
    /** The merge by branch order the resolver starts from. */
    merged: { sha: string; branch: string };
  },
): Promise<BlockOutcome> {
  const { context } = host;
  const marked = await writeMarkedConflicts(host, input.conflicts);
  info(
    context,
    `Merge of ${input.block.name} conflicted in ${input.conflicts.length} file(s); resolver ${input.resolverEntry.codonId} runs (${marked} with conflict markers)`,
  );
  // The conflicts go into the plan: durable, so a resumed resolver gets the same prompt.
  const plan = context.store.state.executionPlan.map((entry) =>
    entry.codonId === input.resolverEntry.codonId
      ? { ...entry, mergeConflicts: input.conflicts.map(conflictView) }
      : entry,
  );
  transition(context, { type: 'ExecutionPlanUpdated', data: { executionPlan: plan } });
  let retry = false;
  for (;;) {
    const entry = context.store.state.executionPlan.find(
      (candidate) => candidate.codonId === input.resolverEntry.codonId,
    ) as ExecutionCodonEntry;
    const decision = await host.execute(context, host.hint, entry, {
      skipPreCommands: retry,
      isAutoRetry: retry,
    });
    if (decision.kind === 'retry') {
      await sleep(decision.delayMs, host.stopSignal);
      if (!host.driving()) return { kind: 'stopped' };
      retry = true;
      continue;
    }
    if (decision.kind === 'shutdown') {
      host.halt('codon failure');
      return { kind: 'stopped' };
    }
    if (decision.kind === 'idle') return { kind: 'idle' };
    break;
  }
  const run = currentRun(context.store.state);
  if (!run) return { kind: 'stopped' };
  // A resolver that failed and was ignored leaves the merge as branch order settled it.
  const settled = resolvedCheckpoint(context, input.resolverEntry) ?? input.merged.sha;
  recordMerge(context, {
    runId: run.runId,
    entry: input.mergeEntry,
    hint: host.hint,
    ending: { status: 'completed', checkpointSha: settled },
    checkpoint: input.merged,
  });
  return { kind: 'next' };
}

/** Full shas of the branches' checkpoints, for the merge commit's parents. */
async function resolveAll(host: BlockHost, branches: { ref: string }[]): Promise<string[]> {
  return Promise.all(branches.map((branch) => host.context.engine.resolve(branch.ref)));
}

/** agentRoot as the merge checkpoint has it; recorded with its listing, as every checkpoint. */
async function restoreMerged(host: BlockHost, sha: string, blockId: string): Promise<void> {
  const { context } = host;
  const tracked = resolveTracked(context, patternsUpTo(context.store.state.executionPlan, blockId));
  await context.engine.restore(sha, { tracked });
  host.hint.invalidate();
  context.scanner.reset();
  const files = (await context.engine.files(sha)).map((file) => file.path);
  await recordListing(context, checkpointListing(sha, await listAgentRoot(context), files));
}

/**
 * Writes each text conflict's diff3-marked file into agentRoot for the resolver, never through a
 * link (a path whose directories are links is left as branch order wrote it). Returns how many.
 */
async function writeMarkedConflicts(host: BlockHost, conflicts: MergeConflict[]): Promise<number> {
  const root = host.context.layout.agentRoot;
  let written = 0;
  for (const conflict of conflicts) {
    if (conflict.text === undefined) continue;
    if ((await findSymlinkOnPath(root, conflict.path)) !== undefined) continue;
    const handle = await open(
      join(root, conflict.path),
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    );
    try {
      await handle.writeFile(conflict.text);
    } finally {
      await handle.close();
    }
    written++;
  }
  host.hint.add(conflicts.map((conflict) => conflict.path));
  return written;
}

/** What state.json, events and prompts say of a conflict: the file, its kind, both sides. */
export function conflictView(conflict: MergeConflict) {
  return {
    path: conflict.path,
    kind: conflict.kind,
    branches: conflict.sides.map((side) => side.branch),
    ...(conflict.text !== undefined
      ? { text: conflict.text.slice(0, CONFLICT_TEXT_IN_EVENT) }
      : {}),
  };
}

function conflictMessage(block: ParallelConfig, conflicts: MergeConflict[]): string {
  const listed = conflicts
    .slice(0, 10)
    .map(
      (conflict) =>
        `${conflict.path} (${conflict.kind}: ${conflict.sides.map((side) => side.branch).join(' vs ')})`,
    )
    .join('; ');
  const more = conflicts.length > 10 ? `; and ${conflicts.length - 10} more` : '';
  return `Merging parallel block ${block.id} conflicted in ${conflicts.length} file(s): ${listed}${more}. Both sides are in this event's context and in each branch's checkpoint; set the block's merge.onConflict to "ordered" or a resolver codon, or change a branch, then resume`;
}
