import type { BudgetExceeded } from '@hankweave/types';
import type { CodonRow } from './codon-rows.js';
import { formatCost } from './format.js';

/** "cost $0.0120 > $0.0100", "outputTokens 200 > 5", "time 61.0s ≥ 60s". */
export function describeBudgetExceeded({ currency, limit, used }: BudgetExceeded): string {
  switch (currency) {
    case 'cost':
      return `cost ${formatCost(used)} > ${formatCost(limit)}`;
    case 'duration':
      return `time ${used.toFixed(1)}s ≥ ${limit}s`;
    default:
      return `${currency} ${used} > ${limit}`;
  }
}

/**
 * The codons a budget stopped, for the summary and `status`: "2 codon(s) stopped by a budget:
 * a (cost $0.0120 > $0.0100), b (outputTokens 200 > 5)". Undefined when none was.
 */
export function budgetLine(rows: readonly CodonRow[]): string | undefined {
  const stopped = rows.filter((row) => row.budgetExceeded);
  if (stopped.length === 0) return undefined;
  const list = stopped
    .map(
      (row) => `${row.codonId} (${describeBudgetExceeded(row.budgetExceeded as BudgetExceeded)})`,
    )
    .join(', ');
  return `${stopped.length} codon(s) stopped by a budget: ${list}`;
}
