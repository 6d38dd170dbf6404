import {
  type BranchItem,
  type CodonConfig,
  type ContainerBudget,
  type HankConfig,
  isLoopConfig,
  isParallelConfig,
  resolverOf,
} from '@hankweave/types';
import type { Terminal } from './terminal.js';

const cell = (value: number | string | undefined): string =>
  value === undefined ? '-' : String(value);

const containerText = (budget: ContainerBudget): string => {
  const parts = [
    budget.maxDollars !== undefined ? `$${budget.maxDollars}` : undefined,
    budget.maxTimeSeconds !== undefined ? `${budget.maxTimeSeconds}s` : undefined,
    budget.allocation,
    budget.shares
      ? `shares ${Object.entries(budget.shares)
          .map(([id, share]) => `${id}=${share}`)
          .join(' ')}`
      : undefined,
    budget.onExceeded ? `onExceeded ${budget.onExceeded}` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join(', ');
};

/**
 * The budget table of `validate` (reference §1.7 "`--validate` prints a budget table"): the hank's
 * and each loop's container budget, then one row per codon with a budget of its own. Prints
 * nothing for a hank without budgets.
 */
export function printBudgetTable(terminal: Terminal, config: HankConfig): void {
  const { style } = terminal;
  const lines: string[] = [];
  const rows: string[][] = [];
  const codonRow = (label: string, codon: CodonConfig) => {
    const budget = codon.budget;
    if (!budget) return;
    rows.push([
      label,
      cell(budget.maxDollars !== undefined ? `$${budget.maxDollars}` : undefined),
      cell(budget.maxTimeSeconds !== undefined ? `${budget.maxTimeSeconds}s` : undefined),
      cell(budget.maxOutputTokens),
      cell(budget.maxContextTokens),
      cell(budget.onExceeded),
    ]);
  };
  if (config.overrides?.budget) lines.push(`hank: ${containerText(config.overrides.budget)}`);
  const itemRows = (item: BranchItem, prefix: string) => {
    if (isLoopConfig(item)) {
      if (item.budget) lines.push(`loop ${prefix}${item.id}: ${containerText(item.budget)}`);
      for (const codon of item.codons) codonRow(`${prefix}${item.id}/${codon.id}`, codon);
    } else codonRow(`${prefix}${item.id}`, item);
  };
  for (const item of config.hank) {
    if (!isParallelConfig(item)) {
      itemRows(item, '');
      continue;
    }
    if (item.budget) lines.push(`parallel ${item.id}: ${containerText(item.budget)}`);
    for (const branch of item.branches) {
      for (const inner of branch.items) itemRows(inner, `${item.id}/${branch.id}/`);
    }
    const resolver = resolverOf(item);
    if (resolver) codonRow(`${item.id}/${resolver.id}`, resolver);
  }
  if (lines.length === 0 && rows.length === 0) return;
  terminal.out(style.bold('Budgets'));
  for (const line of lines) terminal.out(`  ${line}`);
  if (rows.length > 0) {
    const header = ['codon', 'dollars', 'time', 'output tokens', 'context tokens', 'onExceeded'];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
    );
    const format = (row: string[]) =>
      row
        .map((value, column) => value.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd();
    terminal.out(`  ${style.dim(format(header))}`);
    for (const row of rows) terminal.out(`  ${format(row)}`);
  }
}
