import { readExecutionState } from '@hankweave/inspection';
import { rollbackExecution } from '@hankweave/inspection/rollback';
import { findExecution } from '../execution/find-execution.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { describeEvent } from '../output/describe-event.js';
import { shortSha } from '../output/format.js';
import { branchCodonRef } from '../output/lanes.js';
import { logTo } from '../output/run-view.js';
import type { Terminal } from '../output/terminal.js';
import { resumeFlagsOf } from '../sessions/resume-flags.js';
import type { RollbackOptions } from './rollback-flags.js';

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
  // A parallel block's branch (`review/left`) stands for its newest codon on the thread.
  const state = await readExecutionState(executionDir).catch(() => undefined);
  const resolved = (state && branchCodonRef(target, state)) ?? target;
  const result = await rollbackExecution(executionDir, resolved, {
    force: options.force === true,
    command: commandHint,
    logger: {
      warn: (message) => logTo(terminal, 'warn', message),
      error: (message) => logTo(terminal, 'error', message),
    },
    onEvent: (event) => {
      if (options.json) terminal.out(JSON.stringify(event));
      else if (
        event.type.startsWith('rollback.') ||
        (event.type === 'info' && /roll/i.test(event.data.message))
      )
        terminal.out(terminal.style.dim(describeEvent(event)));
    },
  });
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
