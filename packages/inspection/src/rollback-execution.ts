import { existsSync } from 'node:fs';
import { createRuntime, type RuntimeCommand, type RuntimeLogger } from '@hankweave/runtime';
import type { HankweaveEvent } from '@hankweave/types';
import { parseRef } from './checkpoint-ref.js';
import { type CommandLine, InspectionError, plainCommandLine } from './errors.js';
import { liveLock } from './live-lock.js';
import { readExecutionState, readMeta } from './read-execution.js';

/** Where a rollback landed: the new continuation run, the checkpoint and its codon. */
export interface RollbackOutcome {
  toRun: string;
  sha: string;
  codonId: string | null;
}

/** Options of {@link rollbackExecution}. */
export interface RollbackExecutionOptions {
  /** Relink the data source if it changed since the execution was created. */
  force?: boolean;
  /** Every event the runtime emits while it opens the execution and rolls back. */
  onEvent?: (event: HankweaveEvent) => void;
  logger?: Pick<RuntimeLogger, 'warn' | 'error'>;
  /** How hints spell the commands they suggest (default: `hankweave ...`). */
  command?: CommandLine;
}

/**
 * Rolls a stopped execution back to `last-success`, a codon (`codon[:type]`, default type end)
 * or a checkpoint sha: opens it with the runtime (autostart off, no preflight: no agent runs),
 * runs the rollback command (seed 002: tracked files restored, detached HEAD, a new continuation
 * run) and shuts down. Shared by `hankweave rollback` and `hankweave ui --write`.
 * @throws {InspectionError} INSPECTION_RUNNING while a runtime runs the execution;
 *   INSPECTION_NOT_FOUND without a readable execution-meta.json or when the hank is gone;
 *   INSPECTION_INVALID_INPUT for a target that is neither a codon, last-success nor a sha; the
 *   runtime's errors (CHECKPOINT_NOT_FOUND …) as they are.
 */
export async function rollbackExecution(
  executionDir: string,
  target: string,
  options: RollbackExecutionOptions = {},
): Promise<RollbackOutcome> {
  const lock = await liveLock(executionDir);
  if (lock) {
    throw new InspectionError(
      'INSPECTION_RUNNING',
      `The execution ${executionDir} is running (pid ${lock.pid}, run ${lock.runId ?? '?'}, heartbeat ${lock.lastHeartbeat})`,
      'Stop that run first (Ctrl-C in its terminal, or kill the pid), then roll back.',
    );
  }
  const meta = await readMeta(executionDir);
  if (!meta)
    throw new InspectionError(
      'INSPECTION_NOT_FOUND',
      `${executionDir} has no readable execution-meta.json`,
      'Only executions created by hankweave can be rolled back.',
    );
  if (!existsSync(meta.hankPath)) {
    throw new InspectionError(
      'INSPECTION_NOT_FOUND',
      `The hank of this execution is gone: ${meta.hankPath}`,
      'Restore that hank.json: the runtime opens the execution with it, even to roll back.',
    );
  }
  const command = rollbackCommandOf(
    target,
    await readExecutionState(executionDir),
    options.command,
  );
  const dataPath = existsSync(meta.readOnlySourceResolvedDataPath)
    ? meta.readOnlySourceResolvedDataPath
    : meta.readOnlySourceDataPath;
  const runtime = createRuntime({
    hankPath: meta.hankPath,
    dataPath,
    executionDir,
    autostart: false,
    // The rollback opens the one run it records: no empty `continue` run before it.
    openRunAtStart: false,
    // A rollback runs no agent: no credentials or API are needed.
    preflight: false,
    force: options.force === true,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  if (options.onEvent) runtime.on(options.onEvent);
  await runtime.start();
  try {
    return (await runtime.command(command)).data as RollbackOutcome;
  } finally {
    await runtime.close();
  }
}

/** The runtime command of a rollback target (see {@link rollbackExecution}). */
export function rollbackCommandOf(
  target: string,
  state: Awaited<ReturnType<typeof readExecutionState>>,
  command: CommandLine = plainCommandLine,
): RuntimeCommand {
  if (target === 'last-success') return { type: 'rollback.toLastSuccess', data: {} };
  const parsed = parseRef(target, state);
  if (parsed.kind === 'codon')
    return {
      type: 'rollback.toCodon',
      data: { codonId: parsed.codonId, checkpointType: parsed.type },
    };
  if (!/^[0-9a-f]{4,40}$/i.test(parsed.ref)) {
    throw new InspectionError(
      'INSPECTION_INVALID_INPUT',
      `${target} is not a codon of this execution, last-success, or a checkpoint sha`,
      `See the choices with \`${command('checkpoints')}\` (shas) and \`${command('status')}\` (codon ids).`,
    );
  }
  return { type: 'rollback.toCheckpoint', data: { checkpointSha: parsed.ref.toLowerCase() } };
}
