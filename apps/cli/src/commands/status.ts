import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { liveLock, readExecutionState, readMeta } from '@hankweave/inspection';
import {
  type DebrisManifest,
  executionLayout,
  readDebrisManifests,
} from '@hankweave/runtime/layout';
import { executionThread, latestRun, totalCost } from '@hankweave/state';
import { withExecutionOptions } from '../execution/execution-options.js';
import { findExecution } from '../execution/find-execution.js';
import { budgetLine } from '../output/budget-line.js';
import { codonRows, costBreakdown, countByStatus } from '../output/codon-rows.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { dateTime, shortSha } from '../output/format.js';
import { describeHankSource } from '../output/hank-source.js';
import { printable } from '../output/printable.js';
import { formatRow, rowLayout } from '../output/row-format.js';
import { describeCost } from '../output/summary.js';
import type { Terminal } from '../output/terminal.js';
import { resumeFlagsOf } from '../sessions/resume-flags.js';
import type { CommandContext, OptionsOf } from './command-context.js';

const declare = (program: CommandUnknownOpts) =>
  withExecutionOptions(
    program
      .command('status')
      .description('where an execution is, whether it runs, its runs, codons and cost'),
  ).option('--json', 'print as JSON');

/** The flags of `hankweave status`, inferred from their declaration. */
export type StatusOptions = OptionsOf<typeof declare>;

/** Adds `hankweave status` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action(async (options) => done(await statusCommand(terminal, options)));
}

/** `hankweave status`: where the execution is, whether it runs, its runs and codons. Read-only. */
export async function statusCommand(terminal: Terminal, options: StatusOptions): Promise<number> {
  const executionDir = await findExecution(options);
  const [state, meta, lock, debris] = await Promise.all([
    readExecutionState(executionDir),
    readMeta(executionDir),
    liveLock(executionDir),
    readDebrisManifests(executionDir),
  ]);
  const thread = executionThread(state);
  const rows = codonRows(state);
  const lastSuccess = lastSuccessOf(thread);
  if (options.json) {
    terminal.out(
      JSON.stringify({
        executionDir,
        meta: meta ?? null,
        // Where the hank came from; an execution recorded before hankSource: its path.
        hankSource: meta ? (meta.hankSource ?? { kind: 'path', path: meta.hankPath }) : null,
        running: lock
          ? { pid: lock.pid, runId: lock.runId, lastHeartbeat: lock.lastHeartbeat }
          : null,
        runs: state.runs.map((run) => ({
          runId: run.runId,
          status: run.status,
          startTime: run.startTime,
          endTime: run.endTime ?? null,
          codons: run.codons.length,
          startingConditions: run.startingConditions,
        })),
        codons: rows.map(({ record: _record, ...row }) => row),
        nextCodonId: thread.nextCodonId,
        interruptedCodonId: thread.interruptedCodonId ?? null,
        lastSuccess: lastSuccess ?? null,
        totalCost: totalCost(state),
        // What totalCost covers: every record of every run, agents and sentinels.
        cost: costBreakdown(state),
        debris: debris.map(({ files, ...move }) => ({
          ...move,
          count: files.length,
          files: files.slice(0, DEBRIS_FILES_SHOWN_IN_JSON),
        })),
      }),
    );
    return 0;
  }
  const { style } = terminal;
  const label = (text: string) => style.dim(text.padEnd(13));
  const latest = latestRun(state);
  terminal.out(`${label('Execution')}${executionDir}`);
  if (meta) {
    const source = meta.hankSource ?? { kind: 'path', path: meta.hankPath };
    terminal.out(`${label('Hank')}${describeHankSource(source)}`);
    if (source.kind !== 'path') terminal.out(`${label('Checkout')}${meta.hankPath}`);
    terminal.out(`${label('Data')}${meta.readOnlySourceDataPath} (${meta.linkType})`);
    terminal.out(
      `${label('Created')}${dateTime(meta.createdAt)}, last used ${dateTime(meta.lastUsed)}`,
    );
  }
  terminal.out(
    `${label('Runtime')}${lock ? style.green(`running (pid ${lock.pid}, run ${lock.runId ?? '?'})`) : 'not running'}`,
  );
  terminal.out(
    `${label('Runs')}${state.runs.length}${latest ? ` (latest ${latest.runId}: ${runStatusOf(latest, thread)})` : ''}`,
  );
  terminal.out(`${label('Codons')}${countByStatus(rows)}`);
  const layout = rowLayout(rows);
  for (const row of rows) terminal.out(`  ${formatRow(row, style, { layout, columns: 200 })}`);
  terminal.out(`${label('Next codon')}${nextCodon(thread, rows, lock !== undefined)}`);
  terminal.out(
    `${label('Last success')}${lastSuccess ? `completed:${lastSuccess.codonId} ${shortSha(lastSuccess.sha)}` : '(none)'}`,
  );
  terminal.out(`${label('Cost')}${describeCost(costBreakdown(state))}`);
  const budget = budgetLine(rows);
  if (budget) terminal.out(`${label('Budget')}${style.yellow(budget)}`);
  for (const [index, move] of debris.entries())
    terminal.out(`${label(index === 0 ? 'Moved aside' : '')}${describeDebris(move)}`);
  if (!lock && thread.nextCodonId)
    terminal.out(
      style.dim(
        `Continue with: ${commandHint('--execution', shellArg(executionDir), ...(await resumeFlagsOf(executionDir)))}`,
      ),
    );
  if (!meta)
    terminal.err(
      style.yellow(`! ${executionLayout(executionDir).metaFile} is missing or unreadable`),
    );
  return 0;
}

const DEBRIS_FILES_SHOWN_IN_JSON = 1000;

/** One rollback's debris: how many files, from which run, where they are now, the first names. */
function describeDebris(move: DebrisManifest): string {
  const names = move.files.slice(0, 3).map(printable).join(', ');
  const more = move.files.length > 3 ? `, +${move.files.length - 3} more` : '';
  const when = move.movedAt ? ` at ${dateTime(move.movedAt)}` : '';
  const to = move.checkpoint ? ` (rollback to ${shortSha(move.checkpoint)}${when})` : '';
  return `${move.files.length} file(s) of run ${printable(move.runId)}${to} in ${move.directory}/agentRoot${names ? `: ${names}${more}` : ''}`;
}

/** The newest completed codon on the thread with a completion checkpoint (a failed run resumes there). */
function lastSuccessOf(
  thread: ReturnType<typeof executionThread>,
): { codonId: string; sha: string } | undefined {
  for (const { codon } of thread.codons) {
    if (codon.status === 'completed' && codon.completionCheckpoint)
      return { codonId: codon.codonId, sha: codon.completionCheckpoint };
  }
  return undefined;
}

function nextCodon(
  thread: ReturnType<typeof executionThread>,
  rows: ReturnType<typeof codonRows>,
  running: boolean,
): string {
  // The branches of a parallel block run at once: every active codon is named.
  const active = rows.filter((row) => row.status !== 'pending' && row.endTime === undefined);
  const says = active
    .map(
      (row) =>
        `${row.lane ? `${row.lane}: ` : ''}${row.codonId} ${running ? 'is' : 'was'} ${row.status}`,
    )
    .join(', ');
  if (active.length > 0 && running) return `(${says})`;
  if (active.length > 0) return `(${says} when its runtime died; resuming recovers it)`;
  if (thread.nextCodonId) return thread.nextCodonId;
  if (thread.interruptedCodonId)
    return `${thread.interruptedCodonId} (it was interrupted; resuming runs it again from the last success)`;
  return thread.failed
    ? '(none: the last run failed; it rolls back to the last success when resumed)'
    : '(none: the plan is complete)';
}

/** A run's status as said to a person: a failed run that an interruption ended is `interrupted`. */
function runStatusOf(
  run: { runId: string; status: string },
  thread: ReturnType<typeof executionThread>,
): string {
  return run.status === 'failed' && thread.runId === run.runId && thread.interruptedCodonId
    ? 'interrupted'
    : run.status;
}
