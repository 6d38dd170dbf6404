import type { Command } from 'commander';
import { bashScript } from '../completion/bash-script.js';
import { commandWords } from '../completion/command-words.js';
import { fishScript } from '../completion/fish-script.js';
import { zshScript } from '../completion/zsh-script.js';
import { CliError } from '../output/cli-error.js';
import type { Terminal } from '../output/terminal.js';

/** The shells `hankweave completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/**
 * The completion script for `shell`, to be sourced (bash, zsh) or saved (fish): the program's
 * subcommands and flags, and the values its definitions name (shells, event types, statuses;
 * codon ids and run ids of the executions here through `hankweave __complete`), else file names.
 */
export function completionScript(program: Command, shell: CompletionShell): string {
  const words = commandWords(program);
  const name = words.root.names[0] ?? 'hankweave';
  if (shell === 'bash') return bashScript(name, words);
  if (shell === 'zsh') return zshScript(name, words);
  return fishScript(name, words);
}

/** `hankweave completion <shell>`: prints the script on stdout. */
export function completionCommand(terminal: Terminal, program: Command, shell: string): number {
  if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) {
    throw new CliError(
      'CLI_USAGE',
      `No completion for the shell ${shell}`,
      `Pass one of ${COMPLETION_SHELLS.join(', ')}: \`${program.name()} completion bash\`.`,
    );
  }
  terminal.out(completionScript(program, shell as CompletionShell).trimEnd());
  return 0;
}
