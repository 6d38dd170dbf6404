import type { CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Terminal } from '../output/terminal.js';

/**
 * What every command module is given when it registers: the things the commands share that are
 * not theirs to decide. `buildProgram` makes one per program; tests build programs with their own.
 */
export interface CommandContext {
  /** Where commands print, with colour and TTY settings decided once (NO_COLOR, FORCE_COLOR). */
  readonly terminal: Terminal;
  /**
   * Stores the exit code of the action that ran; `main` resolves with it. Actions never call
   * `process.exit`, so the program also runs in-process (tests) and `main` flushes output first.
   */
  readonly done: (code: number) => void;
  /**
   * The CLI as the user started it, then `words` (`pnpm hankweave status` from the repository's
   * root script, `npx hankweave status`, `hankweave status`): for help texts and usage hints, so
   * a printed command works when copied.
   */
  readonly hint: (...words: string[]) => string;
}

/**
 * A command module's entry: adds its command (flags, arguments, help and action) to `program`,
 * the root `hankweave` command.
 */
export type RegisterCommand = (program: CommandUnknownOpts, context: CommandContext) => void;

/**
 * The options an action receives from the command `declare` returns, inferred from its flags by
 * `@commander-js/extra-typings` (`--dry-run` → `dryRun?: true`, `--tail <n>` with a default →
 * `tail: string`, `--no-wait` → `wait: boolean`). Handlers take this type, so renaming a flag
 * fails typecheck where its old name is read instead of arriving as `undefined`.
 */
export type OptionsOf<Declare extends (...args: never[]) => { opts(): OptionValues }> = ReturnType<
  ReturnType<Declare>['opts']
>;
