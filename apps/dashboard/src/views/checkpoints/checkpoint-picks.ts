/** The checkpoint list as the page uses it: newest first, and which two are being compared. */
import type { CheckpointWire } from '../../api/types.js';

/**
 * The checkpoints route answers `CheckpointWire[]`; a `{checkpoints: [...]}` envelope is accepted
 * too. Sorted newest first (ties keep the server's order).
 */
export function normalizeCheckpoints(answer: unknown): CheckpointWire[] {
  const list = Array.isArray(answer)
    ? answer
    : typeof answer === 'object' &&
        answer !== null &&
        Array.isArray((answer as { checkpoints?: unknown }).checkpoints)
      ? (answer as { checkpoints: unknown[] }).checkpoints
      : [];
  return (list as CheckpointWire[])
    .filter((c) => typeof c?.sha === 'string')
    .map((c, index) => ({ c, index, t: Date.parse(c.time) }))
    .sort((a, b) => (b.t || 0) - (a.t || 0) || a.index - b.index)
    .map(({ c }) => c);
}

/** Finds a checkpoint by full sha or by a prefix of at least four characters (links carry short ones). */
export function findCheckpoint(
  list: readonly CheckpointWire[],
  sha: string | undefined,
): CheckpointWire | undefined {
  if (sha === undefined || sha.length < 4) return undefined;
  return list.find((c) => c.sha === sha) ?? list.find((c) => c.sha.startsWith(sha));
}

/**
 * With only `to` chosen (links from the run tree and codon view), compare against the checkpoint
 * just before it: what that step changed. `list` is newest first.
 */
export function defaultFrom(
  list: readonly CheckpointWire[],
  to: string | undefined,
): string | undefined {
  const target = findCheckpoint(list, to);
  if (target === undefined) return undefined;
  return list[list.indexOf(target) + 1]?.sha;
}
