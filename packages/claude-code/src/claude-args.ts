import type { AgentStartOptions } from '@hankweave/harness';

/**
 * The command line of one Claude Code run in stream-json mode (reference §4.4): print mode,
 * permissions bypassed, resume and system prompt append when asked. The prompt goes to stdin, so
 * it is never limited by the argument size or visible in `ps`.
 */
export function buildClaudeArgs(
  options: Pick<
    AgentStartOptions,
    'model' | 'resumeSessionId' | 'appendSystemPrompt' | 'autoCompact'
  >,
  extraArgs: readonly string[] = [],
): string[] {
  const args = [
    '-p',
    '--verbose',
    '--output-format',
    'stream-json',
    '--model',
    options.model,
    '--dangerously-skip-permissions',
  ];
  if (options.resumeSessionId !== undefined) args.push('--resume', options.resumeSessionId);
  if (options.appendSystemPrompt !== undefined && options.appendSystemPrompt !== '') {
    args.push('--append-system-prompt', options.appendSystemPrompt);
  }
  if (options.autoCompact !== undefined) {
    args.push('--settings', JSON.stringify({ autoCompactEnabled: options.autoCompact }));
  }
  args.push(...extraArgs);
  return args;
}
