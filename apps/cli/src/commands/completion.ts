import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { bashScript } from '../completion/bash-script.js';
import { commandWords } from '../completion/command-words.js';
import { fishScript } from '../completion/fish-script.js';
import { zshScript } from '../completion/zsh-script.js';
import { CliError } from '../output/cli-error.js';
import type { Terminal } from '../output/terminal.js';
import type { CommandContext } from './command-context.js';

/** The shells `hankweave completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/**
 * Adds `hankweave completion <shell>` to `program`. Its script is read from `program` when the
 * command runs, so it lists every command and flag registered, whatever the order.
 */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for hankweave')
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      `
Load it:  source <(hankweave completion bash)      (add the line to ~/.bashrc)
          source <(hankweave completion zsh)       (add the line to ~/.zshrc)
          hankweave completion fish > ~/.config/fish/completions/hankweave.fish`,
    )
    .action((shell) => done(completionCommand(terminal, program, shell)));
}

/**
 * The completion script for `shell`, to be sourced (bash, zsh) or saved (fish): the program's
 * subcommands and flags, and the values its definitions name (shells, event types, statuses;
 * codon ids and run ids of the executions here through `hankweave __complete`), else file names.
 */
export function completionScript(program: CommandUnknownOpts, shell: CompletionShell): string {
  const words = commandWords(program);
  const name = words.root.names[0] ?? 'hankweave';
  if (shell === 'bash') return bashScript(name, words);
  if (shell === 'zsh') return zshScript(name, words);
  return fishScript(name, words);
}

/** `hankweave completion <shell>`: prints the script on stdout. */
export function completionCommand(
  terminal: Terminal,
  program: CommandUnknownOpts,
  shell: string,
): number {
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
