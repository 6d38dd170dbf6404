import { executionThread } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import { budgetLine } from './budget-line.js';
import { checkpointCount, codonRows, countByStatus } from './codon-rows.js';
import { formatCost, formatDuration } from './format.js';
import { formatRow, rowLayout } from './row-format.js';
import type { Terminal } from './terminal.js';

export interface RunSummaryInput {
  hankName: string;
  state: HankweaveState | undefined;
  executionDir: string | undefined;
  exitCode: number;
  reason: string;
  elapsedMs: number;
}

const REASONS: Record<string, string> = {
  'all codons completed': 'all codons completed',
  'codon failure': 'a codon failed',
  'budget exceeded': 'the budget is spent (remaining codons not run)',
  'budget failure': 'the budget is spent (onExceeded: fail)',
  'client request': 'stopped on request',
  SIGINT: 'interrupted (Ctrl-C)',
  SIGTERM: 'terminated (SIGTERM)',
  force: 'force-stopped',
  error: 'the runtime failed',
};

/** Quotes a path for a shell command line when it needs it. */
export function shellArg(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The end of a run: every codon of the execution thread, counts by status, total cost,
 * checkpoints, where the execution lives, and how to resume and inspect it.
 */
export function printSummary(terminal: Terminal, input: RunSummaryInput, toStderr = false): void {
  const print = (line = '') => (toStderr ? terminal.err(line) : terminal.out(line));
  const { style } = terminal;
  const ok = input.exitCode === 0;
  const complete = ok && input.reason === 'all codons completed';
  const runFailed = input.state ? executionThread(input.state).failed : !ok;
  const reason = REASONS[input.reason] ?? input.reason;
  const symbol = complete ? style.green('✓') : ok ? style.yellow('■') : style.red('✗');
  print();
  print(
    `${symbol} ${style.bold(input.hankName)}: ${reason} in ${formatDuration(input.elapsedMs)} (exit ${input.exitCode})`,
  );
  const rows = input.state ? codonRows(input.state) : [];
  const layout = rowLayout(rows);
  for (const row of rows) print(`  ${formatRow(row, style, { layout, columns: 200 })}`);
  print();
  const label = (text: string) => style.dim(text.padEnd(12));
  if (input.state) {
    const cost = rows.reduce((total, row) => total + row.cost, 0);
    print(`${label('Codons')}${countByStatus(rows)}`);
    print(`${label('Cost')}${formatCost(cost)}`);
    const budget = budgetLine(rows);
    if (budget) print(`${label('Budget')}${style.yellow(budget)}`);
    print(`${label('Checkpoints')}${checkpointCount(input.state)}`);
  }
  if (input.executionDir) {
    const dir = shellArg(input.executionDir);
    print(`${label('Execution')}${input.executionDir}`);
    print(
      `${label('Resume')}hankweave --execution ${dir}${runFailed ? '   (rolls back to the last success first)' : ''}`,
    );
    print(`${label('Inspect')}hankweave checkpoints -e ${dir}   (also: status, events, diff)`);
    if (!ok) print(`${label('Why')}hankweave events -e ${dir} --type error,codon.completed`);
  }
}
