// The codons of an execution that run now, for the live actions (Skip, Force-stop) that act on one.
import type { CodonBar } from '../../api/types.js';

/** The codons running now (a parallel block runs several at once), oldest first. */
export function runningBars(bars: readonly CodonBar[]): CodonBar[] {
  return bars
    .filter((bar) => bar.endTime === undefined)
    .sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0));
}

/** How the codon chooser names a running codon: its name, id, and branch when it has one. */
export function runningLabel(bar: CodonBar): string {
  const branch = bar.parallel?.branchId === undefined ? '' : ` · branch ${bar.parallel.branchId}`;
  return `${bar.name} (${bar.codonId}${branch})`;
}
