import { resolve } from 'node:path';
import { describeContainment, type Runtime, type ShutdownReason } from '@hankweave/runtime';
import { shellArg } from '../output/command-hint.js';
import { printSummary } from '../output/summary.js';
import type { Terminal } from '../output/terminal.js';
import type { DryRun } from './dry-run.js';
import { reportUnanswered } from './unanswered-requests.js';

/** A finished run, as the end-of-run summary needs it. */
export interface FinishedRun {
  hankName: string;
  runtime: Runtime;
  exit: Awaited<Runtime['finished']>;
  /** When the run started (`Date.now()`), for the elapsed time. */
  startedAt: number;
  /** `--scripted-model`, as given: a dry run's Resume line must carry it. */
  scriptedModel: string | undefined;
  dryRun: DryRun | undefined;
  /** The view keeps stdout for NDJSON (`--json`): the summary goes to stderr. */
  toStderr: boolean;
}

/**
 * The end-of-run summary (outcome, codons, cost, the Resume line), then for a dry run the
 * requests its script did not answer.
 */
export function printRunSummary(terminal: Terminal, run: FinishedRun): void {
  const { runtime } = run;
  printSummary(
    terminal,
    {
      hankName: run.hankName,
      state: runtime.getState(),
      executionDir: runtime.executionDir,
      exitCode: run.exit.exitCode,
      reason: run.exit.reason as ShutdownReason,
      elapsedMs: Date.now() - run.startedAt,
      ...(runtime.containment !== undefined && {
        containment: describeContainment(runtime.containment),
      }),
      // A dry run resumes on its script: the Resume line must carry it to work as printed.
      resumeFlags: run.scriptedModel
        ? ['--scripted-model', shellArg(resolve(run.scriptedModel))]
        : [],
    },
    run.toStderr,
  );
  if (run.dryRun && run.scriptedModel)
    reportUnanswered(terminal, run.dryRun.unanswered(), resolve(run.scriptedModel));
}
