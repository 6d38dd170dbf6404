import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { type ValueSource, valueSourceOf } from './value-sources.js';

/** A flag as completion sees it: its spellings, and what completes its value if it takes one. */
export interface FlagWords {
  /** `--type`, then `-t` when it has a short form. */
  names: string[];
  description: string;
  /** Undefined for a flag without a value (`--json`). */
  value?: ValueSource;
}

/** What completion needs to know of one command: its names, flags and positional arguments. */
export interface CommandWords {
  names: string[];
  description: string;
  flags: FlagWords[];
  /** What completes each positional argument, in order. */
  args: ValueSource[];
}

/**
 * The visible subcommands of `program`, with their flags and arguments, read from the commander
 * program itself: the completion never offers a command or flag that does not exist, and each
 * value comes from the definition of its flag (choices, or what `completeWith` declared).
 */
export function commandWords(program: CommandUnknownOpts): {
  root: CommandWords;
  commands: CommandWords[];
} {
  // commander's own Help decides what is visible: hidden commands and options stay hidden here.
  const help = program.createHelp();
  const describe = (command: CommandUnknownOpts, names: string[]): CommandWords => ({
    names,
    description: command.description(),
    flags: help.visibleOptions(command).map((option) => {
      const takesValue = option.required || option.optional;
      return {
        names: [option.long, option.short].filter((flag): flag is string => !!flag),
        description: option.description,
        ...(takesValue ? { value: valueSourceOf(option) } : {}),
      };
    }),
    args: command.registeredArguments.map((argument) => valueSourceOf(argument)),
  });
  return {
    root: describe(program, [program.name()]),
    commands: help
      .visibleCommands(program)
      .map((command) => describe(command, [command.name(), ...command.aliases()])),
  };
}

/** Single-quotes a word for sh, zsh and fish alike. */
export const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/** A description on one line, short, without characters that break `name:description` or `[...]`. */
export const summary = (text: string): string =>
  (text.split(/[;:(]/)[0] ?? '')
    .trim()
    .replaceAll(/['[\]\\]/g, '')
    .slice(0, 60);
