import { readdirSync } from 'node:fs';
import { type CodonConfig, itemCodons } from '@hankweave/types';
import type { CodonAttempt } from '../codon/codon-attempt.js';
import type { CodonRunOutcome } from '../codon/codon-run-outcome.js';
import { runRigSetup } from '../codon/rig-setup.js';
import { checkDataSource } from '../data-guard/codon-data-guard.js';
import type { Decision } from '../runtime/decision.js';
import { endRun } from '../runtime/runs.js';
import { emit, info, type RuntimeContext, reportError } from '../runtime/runtime-context.js';
import { copyOutputs, OutputCopyFailure } from './copy-outputs.js';
import type { OutputFailure } from './output-failure.js';

/** How many renames the `info` message spells out. */
const RENAMES_SHOWN = 5;

/**
 * At start (reference §1.6): every codon whose `outputFiles` will not be copied because no output
 * directory is configured is named in an `info` event, so nothing in hank.json is silently
 * ignored; with an output directory that already holds files, says what happens to a name clash.
 */
export function announceOutputs(context: RuntimeContext): void {
  const codons = context.config.hank
    .flatMap(itemCodons)
    .filter((codon) => (codon.outputFiles ?? []).length > 0);
  if (codons.length === 0) return;
  const directory = context.settings.outputDirectory;
  if (directory === undefined) {
    for (const codon of codons) {
      info(
        context,
        `outputFiles of codon ${codon.id} are not copied: no output directory (-o/--output, or the outputDirectory option)`,
      );
    }
    return;
  }
  if (listing(directory).length > 0) {
    info(
      context,
      context.settings.overwriteOutput
        ? `Output directory ${directory} is not empty: output files overwrite files of the same name`
        : `Output directory ${directory} is not empty: an output file whose name is taken is renamed (name_<counter>_<timestamp>.ext; --overwrite-output replaces instead)`,
    );
  }
}

function listing(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/**
 * In `finishCodon`, after the terminal transition of a completed codon and before
 * `archiveOnSuccess` moves files away (reference §5.5 step 12): copies its `outputFiles` when an
 * output directory is configured. Returns the failure, which {@link outputsAfterCodon} acts on.
 */
export async function copyOutputsOfAttempt(
  attempt: CodonAttempt,
  status: CodonRunOutcome['status'],
): Promise<OutputFailure | undefined> {
  if (status !== 'completed' || attempt.context.abandoned.aborted) return undefined;
  return copyCodonOutputs(attempt.context, attempt.codonId, attempt.codon, attempt);
}

/**
 * After `codon.completed` and `state.snapshot`: a codon whose outputs could not be copied fails
 * the run (`RunFailed`, then a shutdown with exit code 1, reference §1.6) instead of the
 * `decision` taken so far, with a fatal `error` event naming the file or command.
 */
export function outputsAfterCodon(
  context: RuntimeContext,
  input: { codonId: string; runId: string; outcome: CodonRunOutcome },
  decision: Decision,
): Decision {
  const failure = input.outcome.outputFailure;
  if (!failure || context.abandoned.aborted) return decision;
  reportError(context, `Output files of codon ${input.codonId} failed: ${failure.message}`, {
    severity: 'fatal',
    codon: input.codonId,
    context: failure,
  });
  endRun(context, input.runId, 'failed', 'codon failure');
  return { kind: 'shutdown' };
}

/**
 * Runs each `outputFiles` item of a codon in order: its `beforeCopy` commands (cwd the execution
 * directory as in the original, or agentRoot with `workingDirectory: "project"`; env the runtime's
 * plus the codon's), then its globs. Returns the first failure, or undefined.
 */
export async function copyCodonOutputs(
  context: RuntimeContext,
  codonId: string,
  codon: CodonConfig,
  attempt?: CodonAttempt,
): Promise<OutputFailure | undefined> {
  const directory = context.settings.outputDirectory;
  const items = codon.outputFiles ?? [];
  if (directory === undefined || items.length === 0) return undefined;
  const copied = new Set<string>();
  const renamed: { original: string; resolved: string }[] = [];
  let count = 0;
  for (const [outputIndex, item] of items.entries()) {
    for (const [index, operation] of (item.beforeCopy ?? []).entries()) {
      const run = operation.command.run;
      info(
        context,
        `beforeCopy ${index + 1}/${item.beforeCopy?.length} of codon ${codonId}: ${run}`,
      );
      const cwd =
        operation.command.workingDirectory === 'project'
          ? context.layout.agentRoot
          : context.layout.executionDir;
      const { results } = await runRigSetup({
        operations: [operation],
        hankDir: context.hankDir,
        agentRoot: cwd,
        env: { ...context.settings.env, ...codon.env },
        ...(context.settings.rigCommandTimeoutMs
          ? { commandTimeoutMs: context.settings.rigCommandTimeoutMs }
          : {}),
        signal: context.abandoned,
        ...(context.sandbox && { sandbox: context.sandbox }),
        // The data guard checks beforeCopy commands too: the second line behind the sandbox,
        // and the only one without it.
        ...(attempt && {
          checkAfterOperation: async () =>
            (await checkDataSource(attempt, `the beforeCopy command '${run}'`))?.message,
        }),
        onOutput: (stream, line) => context.log.info(`beforeCopy ${codonId} ${stream}: ${line}`),
      });
      const result = results[0];
      if (!result || result.ok) continue;
      if (operation.allowFailure) {
        info(context, `beforeCopy of codon ${codonId} failed (allowFailure): ${result.message}`);
        continue;
      }
      return {
        codonId,
        stage: 'beforeCopy',
        command: run,
        outputIndex,
        message: `beforeCopy command failed: ${result.message}`,
      };
    }
    try {
      const result = await copyOutputs({
        agentRoot: context.layout.agentRoot,
        outputDirectory: directory,
        globs: item.copy,
        resolver: context.resolver,
        overwrite: context.settings.overwriteOutput === true,
        alreadyCopied: copied,
      });
      count += result.copied.length;
      renamed.push(...result.renamed);
      for (const glob of result.unmatched) {
        info(context, `outputFiles glob "${glob}" of codon ${codonId} matched no file`);
      }
      for (const skipped of result.skipped) {
        info(context, `Output ${skipped.path} of codon ${codonId} not copied: ${skipped.reason}`);
      }
    } catch (error) {
      if (!(error instanceof OutputCopyFailure)) throw error;
      return { codonId, stage: 'copy', file: error.file, outputIndex, message: error.message };
    }
  }
  if (renamed.length > 0) {
    // The message names the first few (what a terminal shows); `details` holds every rename.
    const shown = renamed
      .slice(0, RENAMES_SHOWN)
      .map(({ original, resolved }) => `${original} → ${resolved}`)
      .join(', ');
    const more =
      renamed.length > RENAMES_SHOWN ? `, and ${renamed.length - RENAMES_SHOWN} more` : '';
    emit(context, 'info', {
      message: `${renamed.length} output file(s) of codon ${codonId} renamed, the names were taken in ${directory}: ${shown}${more}`,
      details: renamed,
    });
  }
  info(context, `Copied ${count} output file(s) of codon ${codonId} to ${directory}`);
  return undefined;
}
