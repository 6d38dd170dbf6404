import { executionThread } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import { budgetLine } from './budget-line.js';
import { checkpointCount, codonRows, costBreakdown, countByStatus } from './codon-rows.js';
import { commandHint, shellArg } from './command-hint.js';
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
  /**
   * Flags the resume command needs besides `--execution` (a dry run's
   * `--scripted-model <script>`: without it a resume asks for real credentials), already quoted.
   */
  resumeFlags?: readonly string[];
  /** Which containment the run had (`describeContainment`), when it started. */
  containment?: string;
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

// Kept here too: init.ts and older callers import it from the summary.
export { shellArg };

/**
 * The end of a run: every codon of the execution thread, counts by status, total cost,
 * checkpoints, where the execution lives, and how to resume and inspect it.
 */
export function printSummary(terminal: Terminal, input: RunSummaryInput, toStderr = false): void {
  const print = (line = '') => (toStderr ? terminal.err(line) : terminal.out(line));
  const { style } = terminal;
  const ok = input.exitCode === 0;
  const complete = ok && input.reason === 'all codons completed';
  const thread = input.state ? executionThread(input.state) : undefined;
  const runFailed = thread ? thread.failed : !ok;
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
    print(`${label('Codons')}${countByStatus(rows)}`);
    print(`${label('Cost')}${describeCost(costBreakdown(input.state))}`);
    const budget = budgetLine(rows);
    if (budget) print(`${label('Budget')}${style.yellow(budget)}`);
    print(`${label('Checkpoints')}${checkpointCount(input.state)}`);
  }
  if (input.containment) {
    const contained = !input.containment.startsWith('none');
    print(
      `${label('Containment')}${contained ? input.containment : style.yellow(input.containment)}`,
    );
  }
  if (input.executionDir) {
    const dir = shellArg(input.executionDir);
    print(`${label('Execution')}${input.executionDir}`);
    print(
      `${label('Resume')}${commandHint('--execution', dir, ...(input.resumeFlags ?? []))}${resumeNote(thread, runFailed)}`,
    );
    print(
      `${label('Inspect')}${commandHint('checkpoints', '-e', dir)}   (also: status, events, diff)`,
    );
    if (!ok)
      print(
        `${label('Why')}${commandHint('events', '-e', dir, '--type', 'error,codon.completed')}`,
      );
  }
}

/** What resuming does first, said after the Resume command. */
function resumeNote(
  thread: ReturnType<typeof executionThread> | undefined,
  failed: boolean,
): string {
  if (thread?.interruptedCodonId)
    return `   (runs ${thread.interruptedCodonId} again, the codon that was interrupted)`;
  return failed ? '   (rolls back to the last success first)' : '';
}

/**
 * What a cost figure covers, said once for the summary and `status`: "$0.0474 = agent codons
 * $0.0474 + sentinels $0.0000, over 1 run (retried and rolled-back codons count)".
 */
export function describeCost(cost: ReturnType<typeof costBreakdown>): string {
  const runs = cost.runs === 1 ? '1 run' : `${cost.runs} runs`;
  return `${formatCost(cost.total)} = agent codons ${formatCost(cost.agents)} + sentinels ${formatCost(cost.sentinels)}, over ${runs} (retried and rolled-back codons count)`;
}
