import type { CodonExecution, HankweaveState, Run } from '@hankweave/types';

/**
 * What one codon record cost in USD, sentinels included (seed 000 "Calculate Cost for the Current
 * Run"): `finalCost` when completed, `partialCost` when failed or skipped, `currentCost` while
 * running or completing sentinels, plus `sentinels.totalCost`.
 */
export const codonCost = (codon: CodonExecution): number => {
  let own = 0;
  switch (codon.status) {
    case 'completed':
      own = codon.finalCost;
      break;
    case 'failed':
    case 'skipped':
      own = codon.partialCost ?? 0;
      break;
    case 'running':
    case 'completing-sentinels':
      own = codon.currentCost;
      break;
    default:
      own = 0;
  }
  // Preparing records have no sentinels; terminal ones may lack them (no sentinels configured).
  const sentinels = (codon as { sentinels?: { totalCost?: number } }).sentinels;
  return own + (sentinels?.totalCost ?? 0);
};

/** Total cost of a run: every record, retries included. 0 for no run. */
export const runCost = (run: Run | undefined): number =>
  run?.codons.reduce((total, codon) => total + codonCost(codon), 0) ?? 0;

/** Total cost of every run in the state. */
export const totalCost = (state: HankweaveState): number =>
  state.runs.reduce((total, run) => total + runCost(run), 0);
