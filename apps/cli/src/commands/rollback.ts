import { existsSync } from 'node:fs';
import { createRuntime, type RuntimeCommand } from '@hankweave/runtime';
import { parseRef } from '../execution/checkpoint-ref.js';
import { type ExecutionSelector, findExecution, liveLock } from '../execution/find-execution.js';
import { readExecutionState, readMeta } from '../execution/open-inspection.js';
import { CliError } from '../output/cli-error.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { describeEvent } from '../output/describe-event.js';
import { shortSha } from '../output/format.js';
import { logTo } from '../output/run-view.js';
import type { Terminal } from '../output/terminal.js';
import { resumeFlagsOf } from '../sessions/resume-flags.js';

export interface RollbackOptions extends ExecutionSelector {
  force?: boolean;
  json?: boolean;
}

/**
 * `hankweave rollback <last-success | codon[:type] | sha>` on an execution that is not running:
 * opens it with the runtime (autostart off), runs the rollback command (seed 002: tracked files
 * restored, detached HEAD, a new continuation run), and shuts down. The next
 * `hankweave --execution <dir>` continues after the target.
 */
export async function rollbackCommand(
  terminal: Terminal,
  target: string,
  options: RollbackOptions,
): Promise<number> {
  const executionDir = await findExecution(options);
  const lock = await liveLock(executionDir);
  if (lock) {
    throw new CliError(
      'CLI_FAILED',
      `The execution ${executionDir} is running (pid ${lock.pid}, run ${lock.runId ?? '?'}, heartbeat ${lock.lastHeartbeat})`,
      'Stop that run first (Ctrl-C in its terminal, or kill the pid), then roll back.',
    );
  }
  const meta = await readMeta(executionDir);
  if (!meta)
    throw new CliError(
      'CLI_NOT_FOUND',
      `${executionDir} has no readable execution-meta.json`,
      'Only executions created by hankweave can be rolled back.',
    );
  if (!existsSync(meta.hankPath)) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `The hank of this execution is gone: ${meta.hankPath}`,
      'Restore that hank.json: the runtime opens the execution with it, even to roll back.',
    );
  }
  const command = toCommand(target, await readExecutionState(executionDir));
  const dataPath = existsSync(meta.readOnlySourceResolvedDataPath)
    ? meta.readOnlySourceResolvedDataPath
    : meta.readOnlySourceDataPath;
  const runtime = createRuntime({
    hankPath: meta.hankPath,
    dataPath,
    executionDir,
    autostart: false,
    // A rollback runs no agent: no credentials or API are needed.
    preflight: false,
    force: options.force === true,
    logger: {
      warn: (message) => logTo(terminal, 'warn', message),
      error: (message) => logTo(terminal, 'error', message),
    },
  });
  runtime.on((event) => {
    if (options.json) terminal.out(JSON.stringify(event));
    else if (
      event.type.startsWith('rollback.') ||
      (event.type === 'info' && /roll/i.test(event.data.message))
    )
      terminal.out(terminal.style.dim(describeEvent(event)));
  });
  await runtime.start();
  let result: { toRun: string; sha: string; codonId: string | null };
  try {
    result = (await runtime.command(command)).data as typeof result;
  } finally {
    await runtime.close();
  }
  if (!options.json) {
    const { style } = terminal;
    terminal.out(
      `${style.green('✓')} Rolled back to ${result.codonId ?? 'the initial checkpoint'} ${style.yellow(shortSha(result.sha))} (new run ${result.toRun}); the tracked files in agentRoot/ are restored.`,
    );
    terminal.out(
      style.dim(
        `Continue from there: ${commandHint('--execution', shellArg(executionDir), ...(await resumeFlagsOf(executionDir)))}`,
      ),
    );
    terminal.out(style.dim(`Inspect: ${commandHint('status', '-e', shellArg(executionDir))}`));
  }
  return 0;
}

function toCommand(
  target: string,
  state: Awaited<ReturnType<typeof readExecutionState>>,
): RuntimeCommand {
  if (target === 'last-success') return { type: 'rollback.toLastSuccess', data: {} };
  const parsed = parseRef(target, state);
  if (parsed.kind === 'codon')
    return {
      type: 'rollback.toCodon',
      data: { codonId: parsed.codonId, checkpointType: parsed.type },
    };
  if (!/^[0-9a-f]{4,40}$/i.test(parsed.ref)) {
    throw new CliError(
      'CLI_USAGE',
      `${target} is not a codon of this execution, last-success, or a checkpoint sha`,
      `See the choices with \`${commandHint('checkpoints')}\` (shas) and \`${commandHint('status')}\` (codon ids).`,
    );
  }
  return { type: 'rollback.toCheckpoint', data: { checkpointSha: parsed.ref.toLowerCase() } };
}
