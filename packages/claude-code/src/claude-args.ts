import type { AgentStartOptions } from '@hankweave/harness';

/** The data source's link in the agent's working directory (the runtime's `DATA_LINK_NAME`). */
export const DATA_SOURCE_DIR = 'read_only_data_source';

/**
 * Deny rules that keep the agent's file tools out of the data source. Claude Code checks path
 * rules only in `Edit(...)` (which covers Write, Edit, MultiEdit and NotebookEdit) and `Read(...)`;
 * a `Write(path)` rule is never consulted. A relative pattern is relative to the working directory,
 * and deny rules hold with `--dangerously-skip-permissions` too (tested as root, IS_SANDBOX=1,
 * Claude Code 2.1.329). Shell commands are not covered: the runtime's data guard catches those.
 */
export const DATA_SOURCE_DENY_RULES: readonly string[] = Object.freeze([
  `Edit(./${DATA_SOURCE_DIR})`,
  `Edit(./${DATA_SOURCE_DIR}/**)`,
]);

/**
 * The command line of one Claude Code run in stream-json mode (reference §4.4): print mode,
 * permissions bypassed except the data source's deny rules, resume and system prompt append when
 * asked. The prompt goes to stdin, so it is never limited by the argument size or visible in `ps`.
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
  const settings = {
    ...(options.autoCompact !== undefined ? { autoCompactEnabled: options.autoCompact } : {}),
    permissions: { deny: [...DATA_SOURCE_DENY_RULES] },
  };
  args.push('--settings', JSON.stringify(settings));
  args.push(...extraArgs);
  return args;
}
