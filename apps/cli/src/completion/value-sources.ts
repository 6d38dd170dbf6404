import type { Argument, Option } from '@commander-js/extra-typings';

/**
 * What the shell offers for the value of a flag or argument: a fixed list (shells, event types,
 * statuses), what `hankweave __complete <kind>` prints at completion time (codon ids, run ids and
 * session keys of the executions here), or file names (the default).
 */
export type ValueSource =
  | { kind: 'words'; words: readonly string[] }
  | { kind: 'dynamic'; name: DynamicValues }
  | { kind: 'files' };

/** The lists `hankweave __complete` can print. */
export const DYNAMIC_VALUES = ['codons', 'targets', 'runs', 'sessions', 'branches'] as const;
export type DynamicValues = (typeof DYNAMIC_VALUES)[number];

const SOURCES = new WeakMap<Option | Argument, ValueSource>();

/**
 * Declares what completes the value of `target` (an option or argument of the program), next to
 * its definition; commander's own `.choices()` count as a fixed list without this.
 */
export function completeWith<T extends Option | Argument>(
  target: T,
  source: readonly string[] | DynamicValues,
): T {
  SOURCES.set(
    target,
    typeof source === 'string'
      ? { kind: 'dynamic', name: source }
      : { kind: 'words', words: source },
  );
  return target;
}

/** What completes the value of `target`: declared, else its choices, else file names. */
export function valueSourceOf(target: Option | Argument): ValueSource {
  const declared = SOURCES.get(target);
  if (declared) return declared;
  const choices = (target as { argChoices?: string[] }).argChoices;
  return choices && choices.length > 0 ? { kind: 'words', words: choices } : { kind: 'files' };
}
