import type { FailureReason, RigOperation } from '@hankweave/types';
import { dataSourceFailure, guardRigSetup } from '../data-guard/codon-data-guard.js';
import { emit, info, reportError } from '../runtime/runtime-context.js';
import type { CodonAttempt } from './codon-attempt.js';
import { runRigSetup } from './rig-setup.js';
import { takeCheckpoint } from './take-checkpoint.js';

/** How `preparing` ended: ready to start (with the rig's checkpoint, if a rig ran), or failed. */
export type PrepareResult =
  | { kind: 'ready'; rigSetupCheckpoint?: string }
  | { kind: 'failed'; failureReason: FailureReason; exitCode: number };

/**
 * The `preparing` state (reference §5.5 step 2): runs the rig, reports each operation, and takes
 * the `rig-setup` checkpoint when a rig ran.
 */
export async function prepareCodon(
  attempt: CodonAttempt,
  skipPreCommands: boolean,
): Promise<PrepareResult> {
  const { context, codon, codonId } = attempt;
  const operations = codon.rigSetup ?? [];
  if (operations.length === 0 || skipPreCommands) return { kind: 'ready' };
  info(context, `Rig setup started for codon '${codon.name}': ${operations.length} operation(s)`);
  const rig = await runRigSetup({
    operations,
    hankDir: context.hankDir,
    agentRoot: context.layout.agentRoot,
    env: { ...context.settings.env, ...codon.env },
    ignoreFailures: context.settings.ignoreRigFailures,
    ...(context.settings.rigCommandTimeoutMs
      ? { commandTimeoutMs: context.settings.rigCommandTimeoutMs }
      : {}),
    signal: attempt.control.abort.signal,
    ...(context.sandbox && { sandbox: context.sandbox }),
    // The user's data is checked after every rig operation (a command may write anywhere).
    checkAfterOperation: await guardRigSetup(attempt),
    onOperation: (index, operation) =>
      info(context, `Rig operation ${index + 1}/${operations.length}: ${describe(operation)}`),
    onOutput: (stream, line, commandIndex) =>
      emit(context, 'rig.output', { codonId, stream, line, commandIndex }),
  });
  for (const result of rig.results.filter((candidate) => !candidate.ok)) {
    emit(context, 'rig.setup.failed', {
      codonId,
      failureType: result.failureType ?? 'other',
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      commandIndex: result.index,
      ignored: result.ignored,
      ...(result.message ? { message: result.message } : {}),
    });
    if (result.ignored) {
      const why = operations[result.index]?.allowFailure
        ? 'allowFailure=true'
        : '--ignore-rig-failures';
      reportError(
        context,
        `Rig setup operation failed but continuing (${why}): ${result.message}`,
        { severity: 'warning', codon: codonId },
      );
    }
  }
  const guarded = dataSourceFailure(attempt);
  if (guarded) return { kind: 'failed', failureReason: guarded, exitCode: 1 };
  if (rig.fatal) {
    const type = operations[rig.fatal.index]?.type ?? 'rig';
    reportError(context, `Rig setup failed for codon '${codon.name}': ${rig.fatal.message}`, {
      severity: 'fatal',
      codon: codonId,
    });
    return {
      kind: 'failed',
      failureReason: {
        type: 'unknown',
        retriable: true,
        message: `Rig setup failed at ${type} operation: ${rig.fatal.message}`,
      },
      exitCode: rig.fatal.exitCode && rig.fatal.exitCode > 0 ? rig.fatal.exitCode : 1,
    };
  }
  const failed = rig.results.filter((result) => !result.ok).length;
  info(
    context,
    `Rig setup completed for codon '${codon.name}' (${rig.durationMs}ms, ${rig.results.length - failed} succeeded${failed ? `, ${failed} failed` : ''})`,
  );
  let rigSetupCheckpoint: string | undefined;
  try {
    rigSetupCheckpoint = await takeCheckpoint(context, attempt.hint, {
      type: 'rig-setup',
      runId: attempt.runId,
      codonId,
      codonName: codon.name,
      durationMs: Date.now() - attempt.startedMs,
      patterns: attempt.patterns,
    });
  } catch (error) {
    return {
      kind: 'failed',
      failureReason: {
        type: 'unknown',
        retriable: false,
        message: `The rig-setup checkpoint failed: ${(error as Error).message}`,
      },
      exitCode: 1,
    };
  }
  emit(context, 'rig.setup.completed', {
    codonId,
    rigType: operations.length > 1 ? 'commands' : 'command',
    commandCount: operations.length,
    durationMs: rig.durationMs,
    createdCheckpoint: rigSetupCheckpoint,
  });
  return { kind: 'ready', rigSetupCheckpoint };
}

function describe(operation: RigOperation): string {
  return operation.type === 'copy'
    ? `copy ${operation.copy.from} → ${operation.copy.to}`
    : `command '${operation.command.run}'`;
}
