import { executionThread } from '@hankweave/state';
import { type HankweaveState, type ParallelContext, suggestKey } from '@hankweave/types';
import { CliError } from './cli-error.js';
import { printable } from './printable.js';

/**
 * Where a codon sits in a parallel block (issue 36), as said to a person: `review/left` for a
 * codon of branch `left` of block `review`, `review resolver` for the block's resolver codon,
 * `review merge` for the block's merge (its record has the block id as codon id).
 */
export function laneLabel(parallel: ParallelContext): string {
  if (parallel.role === 'branch') return `${parallel.blockId}/${parallel.branchId ?? '?'}`;
  return `${parallel.blockId} ${parallel.role}`;
}

/** Every plan entry's parallel context by runtime codon id (codons outside blocks are absent). */
export function lanesOf(state: HankweaveState | undefined): Map<string, ParallelContext> {
  const lanes = new Map<string, ParallelContext>();
  for (const entry of state?.executionPlan ?? [])
    if (entry.parallelContext && !lanes.has(entry.codonId))
      lanes.set(entry.codonId, entry.parallelContext);
  return lanes;
}

/**
 * A codon id as event lines show it: prefixed with its lane when it runs in a parallel block
 * (`[review/left] style`), so the interleaved lines of concurrent branches can be told apart; a
 * block's merge reads `review (merge)`. Ids are untrusted text: control characters are escaped.
 */
export function laneCodonLabel(codonId: string, parallel: ParallelContext | undefined): string {
  if (!parallel) return codonId;
  if (parallel.role === 'merge') return `${printable(codonId)} (merge)`;
  return `[${printable(laneLabel(parallel))}] ${printable(codonId)}`;
}

/**
 * The codon ids of a lane named on the command line: `block/branch` (or a branch id alone, when
 * only one block has a branch of that name), `block resolver`/`block merge` too. Undefined when
 * nothing matches; the caller says which lanes there are.
 */
export function codonsOfLane(
  lanes: ReadonlyMap<string, ParallelContext>,
  name: string,
): string[] | undefined {
  const matching = (label: (parallel: ParallelContext) => string) =>
    [...lanes].filter(([, parallel]) => label(parallel) === name).map(([codonId]) => codonId);
  const exact = matching(laneLabel);
  if (exact.length > 0) return exact;
  const byBranch = [...lanes].filter(
    ([, parallel]) => parallel.role === 'branch' && parallel.branchId === name,
  );
  const blocks = new Set(byBranch.map(([, parallel]) => parallel.blockId));
  return blocks.size === 1 ? byBranch.map(([codonId]) => codonId) : undefined;
}

/** The lane names an execution has, for a hint: `review/left`, `review/right`, … */
export function laneNames(lanes: ReadonlyMap<string, ParallelContext>): string[] {
  return [
    ...new Set(
      [...lanes.values()].filter((p) => p.role === 'branch').map((parallel) => laneLabel(parallel)),
    ),
  ];
}

/**
 * The lanes (`review/left`) `--branch` names (`review/left`, or `left` when only one block has a
 * branch `left`); undefined without `--branch`. A name no branch has is a usage error that lists
 * the branches there are.
 */
export function branchLanesOf(
  branches: readonly string[],
  lanes: ReadonlyMap<string, ParallelContext>,
): Set<string> | undefined {
  if (branches.length === 0) return undefined;
  const named = new Set<string>();
  const valid = laneNames(lanes);
  for (const branch of branches) {
    const found = codonsOfLane(lanes, branch);
    if (!found) {
      const suggestion = suggestKey(branch, valid);
      throw new CliError(
        'CLI_USAGE',
        `No branch "${branch}" in this execution${suggestion ? `. Did you mean "${suggestion}"?` : ''}`,
        valid.length > 0
          ? `Branches of this execution: ${valid.join(', ')}.`
          : 'This execution has no parallel block in its plan.',
      );
    }
    for (const codonId of found) {
      const parallel = lanes.get(codonId);
      if (parallel) named.add(laneLabel(parallel));
    }
  }
  return named;
}

/**
 * A `diff` reference naming a branch (`review/left`, `review/left:start`, or the branch id alone
 * when unique) as the codon reference it stands for: the branch's newest codon on the execution
 * thread (its checkpoints are on the branch's git branch), keeping the `:type`. Undefined when
 * the reference names no branch or is a codon id itself (a codon id wins).
 */
export function branchCodonRef(ref: string, state: HankweaveState): string | undefined {
  const lanes = lanesOf(state);
  const colon = ref.lastIndexOf(':');
  const name = colon > 0 ? ref.slice(0, colon) : ref;
  const type = colon > 0 ? ref.slice(colon) : '';
  if (lanes.size === 0 || lanes.has(name) || state.executionPlan.some((e) => e.codonId === name))
    return undefined;
  const codons = codonsOfLane(lanes, name);
  if (!codons || codons.some((codonId) => lanes.get(codonId)?.role !== 'branch')) return undefined;
  const inBranch = new Set(codons);
  // Thread codons are newest first: the first one of the branch is where the branch got to.
  const newest = executionThread(state).codons.find(({ codon }) => inBranch.has(codon.codonId));
  return `${newest?.codon.codonId ?? codons.at(-1)}${type}`;
}

/** An event's `branch` field (`{blockId, branchId}`), read leniently: journals of any version. */
function branchLane(value: unknown): ParallelContext | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { blockId, branchId } = value as Record<string, unknown>;
  return typeof blockId === 'string' && typeof branchId === 'string'
    ? { blockId, role: 'branch', branchId }
    : undefined;
}

/**
 * The lanes an event tells, by codon id: a branch codon's `codon.started` and `codon.completed`
 * carry its branch, `state.snapshot` each running and completed branch codon's (issue 36). For a
 * view fed by the WebSocket alone (`--attach`), which has no state.json to read the plan from.
 */
export function lanesFromEvent(event: {
  type: string;
  data: unknown;
}): [string, ParallelContext][] {
  if (typeof event.data !== 'object' || event.data === null) return [];
  const data = event.data as Record<string, unknown>;
  const records =
    event.type === 'state.snapshot'
      ? [data.activeCodons, data.completedCodons].flatMap((list) =>
          Array.isArray(list) ? list : [],
        )
      : event.type === 'codon.started' || event.type === 'codon.completed'
        ? [data]
        : [];
  const found: [string, ParallelContext][] = [];
  for (const record of records) {
    if (typeof record !== 'object' || record === null) continue;
    const { codonId, branch } = record as Record<string, unknown>;
    const lane = branchLane(branch);
    if (typeof codonId === 'string' && lane) found.push([codonId, lane]);
  }
  return found;
}

/**
 * The running codons of a `state.snapshot`, as said to a person: `[review/left] style, [review/
 * right] tests` (each with its lane; `activeCodons`, or the original's one `currentCodon`).
 * Empty when none runs.
 */
export function runningCodonsLabel(data: {
  activeCodons?: readonly unknown[] | undefined;
  currentCodon?: unknown;
}): string {
  const running =
    data.activeCodons ?? (data.currentCodon ? [data.currentCodon] : ([] as unknown[]));
  return running
    .map((record) => {
      if (typeof record === 'string') return printable(record);
      if (typeof record !== 'object' || record === null) return '?';
      const { codonId, branch } = record as Record<string, unknown>;
      return laneCodonLabel(typeof codonId === 'string' ? codonId : '?', branchLane(branch));
    })
    .join(', ');
}
