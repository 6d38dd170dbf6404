import type { CodonBar, RunNode } from '../api/types.js';

/**
 * The status a person reads for a codon record or a run: `interrupted` for a failure that was a
 * stop (Ctrl-C, SIGTERM), else the recorded status. state.json keeps `failed` for both, which is
 * what readers of the original runtime parse.
 */
export function displayStatus(item: Pick<CodonBar, 'status' | 'interrupted'> | RunNode): string {
  return item.interrupted ? 'interrupted' : item.status;
}
