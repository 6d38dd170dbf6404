/**
 * Which two checkpoints bracket a codon execution, for links to its diff: it ends at its own last
 * checkpoint, and starts from the newest checkpoint of its run taken before it began (the previous
 * codon's end). The first codon of a continuation run starts from the checkpoint its run continues
 * from; a codon with no earlier checkpoint at all falls back to its rig-setup checkpoint.
 */
import type { CheckpointWire, CodonBar } from '../../api/types.js';

export interface DiffRange {
  from: string;
  to: string;
}

const END_TYPES = new Set(['completed', 'error', 'skipped', 'exit']);

export function codonDiffRange(
  bar: Pick<CodonBar, 'runId' | 'startTime' | 'checkpoints'>,
  checkpoints: readonly CheckpointWire[],
  runStartSha?: string,
): DiffRange | undefined {
  const ends = bar.checkpoints.filter((checkpoint) => END_TYPES.has(checkpoint.type));
  const to = (ends.at(-1) ?? bar.checkpoints.at(-1))?.sha;
  if (to === undefined) return undefined;
  const own = new Set(bar.checkpoints.map((checkpoint) => checkpoint.sha));
  const start = Date.parse(bar.startTime);
  let before: CheckpointWire | undefined;
  for (const checkpoint of checkpoints) {
    if (checkpoint.runId !== bar.runId || own.has(checkpoint.sha)) continue;
    const t = Date.parse(checkpoint.time);
    if (t <= start && (before === undefined || t > Date.parse(before.time))) before = checkpoint;
  }
  const rigSetup = bar.checkpoints.find((checkpoint) => checkpoint.type === 'rig-setup')?.sha;
  const from = before?.sha ?? runStartSha ?? rigSetup;
  return from === undefined || from === to ? undefined : { from, to };
}
